import Foundation
import Testing
import TestSupport
@testable import Lua

/// One test per sandbox rule: each shows the door closed, in a sandboxed state.
@Suite struct LuaSandboxTests {
    let state: LuaState

    init() throws {
        state = try LuaState(sandboxed: true)
    }

    func type(of expression: String) throws -> LuaValue {
        try state.run("return type(\(expression))")[0]
    }

    func runtimeError(_ source: String) -> LuaError? {
        #expect(throws: LuaError.self) { try state.run(source, chunkName: "app.lua") }
    }

    @Test func allowedLibrariesAreThere() throws {
        for library in ["string", "table", "math", "utf8", "coroutine"] {
            #expect(try type(of: library) == "table", "\(library)")
        }
        #expect(try state.run("return string.format('%d', 3), math.max(1, 2), utf8.char(233), table.concat({1, 2}, ',')")
            == ["3", 2, "é", "1,2"])
    }

    @Test func noIO() throws {
        #expect(try type(of: "io") == "nil")
        #expect(runtimeError("io.open('/etc/passwd')")?.message.contains("global 'io'") == true)
    }

    @Test func noOS() throws {
        #expect(try type(of: "os") == "nil")
        #expect(runtimeError("os.execute('true')")?.message.contains("global 'os'") == true)
    }

    @Test func noDebug() throws {
        #expect(try type(of: "debug") == "nil")
        #expect(runtimeError("debug.getregistry()") != nil)
    }

    @Test func noPackageNorCLoaders() throws {
        #expect(try type(of: "package") == "nil")
        #expect(try type(of: "loadlib") == "nil")
        // A C module name goes nowhere: no package.cpath, no loader.
        let error = runtimeError("require('socket.core')")
        #expect(error?.message.contains("module 'socket.core' not found") == true)
    }

    @Test func noDofile() throws {
        #expect(try type(of: "dofile") == "nil")
        #expect(runtimeError("dofile('/etc/passwd')") != nil)
    }

    @Test func noLoadfile() throws {
        #expect(try type(of: "loadfile") == "nil")
        #expect(try type(of: "loadstring") == "nil")
    }

    @Test func loadRefusesBinaryChunks() throws {
        // A binary chunk starts with ESC "Lua"; it is refused whatever the mode says.
        let results = try state.run(#"""
            local f1, e1 = load("\27Lua\84\0")
            local f2, e2 = load("\27Lua\84\0", "x", "b")
            local f3 = load("return 1 + 1", "text", "bt", {})
            return f1, e1, f2, e2, f3()
            """#)
        try #require(results.count == 5)
        #expect(results[0] == .nil)
        #expect(results[1].stringValue?.contains("attempt to load a binary chunk") == true)
        #expect(results[2] == .nil)
        #expect(results[3].stringValue?.contains("attempt to load a binary chunk") == true)
        #expect(results[4] == 2)   // text chunks, with an env, still load
        // The env argument is honoured (not silently dropped by the wrapper).
        #expect(try state.run("return load('return x', 'c', 't', { x = 5 })()") == [5])
        #expect(try state.run("x = 6 return load('return x')()") == [6])
    }

    @Test func noStringDump() throws {
        #expect(try type(of: "string.dump") == "nil")
        #expect(runtimeError("string.dump(print)") != nil)
    }

    @Test func stringMetatableCannotBeChanged() throws {
        #expect(try state.run("return getmetatable('')") == [false])
        let error = runtimeError("getmetatable('').__index = function() return 'pwned' end")
        #expect(error?.message.contains("attempt to index a boolean value") == true)
        #expect(runtimeError("setmetatable('', {})") != nil)
        #expect(try state.run("return ('abc'):upper()") == ["ABC"])
    }

    /// Issue 10, item 5: a script could change a library every other script shares.
    @Test func sharedLibrariesAreReadOnly() throws {
        for (library, key) in [("string", "upper"), ("table", "concat"), ("math", "max"), ("utf8", "char"), ("coroutine", "wrap")] {
            let error = runtimeError("\(library).\(key) = function() return 'pwned' end")
            #expect(error?.message == "app.lua:1: cannot set \(library).\(key): the \(library) library is read-only", "\(library)")
            #expect(runtimeError("rawset(\(library), 'x', 1)")?.message == "app.lua:1: rawset: this table is read-only")
            #expect(runtimeError("setmetatable(\(library), nil)")?.message.contains("protected metatable") == true)
        }
        #expect(runtimeError("string[('k'):rep(500)] = 1")?.message.contains("string.kkk") == true)
        // Reads, methods, pairs, #, require and getmetatable see the library as it was.
        #expect(try state.run("""
            local n = 0 for name, f in pairs(string) do n = n + 1 end
            return ('abc'):upper(), string.upper('x'), n >= 16, #table, require('string') == string, getmetatable(math)
            """) == ["ABC", "X", true, 0, true, "read-only"])
        // The global names are the script's own: replacing one changes what the script sees.
        #expect(try state.run("string = { upper = function() return 'mine' end } return string.upper('x'), ('x'):upper()") == ["mine", "X"])
    }

    @Test func setmetatableOnTablesStaysButRefusesGC() throws {
        #expect(try state.run("return setmetatable({}, { __index = function() return 7 end }).x") == [7])
        let error = runtimeError("setmetatable({}, { __gc = function() while true do end end })")
        #expect(error?.message.contains("__gc metamethods are not allowed") == true)
    }

    @Test func collectGarbageIsRestricted() throws {
        #expect(try state.run("return type(collectgarbage('count'))") == ["number"])
        #expect(try state.run("return collectgarbage()") == [0])
        #expect(runtimeError("collectgarbage('stop')")?.message.contains("invalid option 'stop'") == true)
        #expect(runtimeError("collectgarbage('generational')") != nil)
    }

    @Test func requireOfUnknownModuleFails() throws {
        let error = runtimeError("require('nope')")
        #expect(error?.message.contains("module 'nope' not found") == true)
        #expect(state.stackTop == 0)
    }

    @Test func requireFindsStandardLibrariesAndPreloadedModules() throws {
        #expect(try state.run("return require('string') == string") == [true])
        var loads = 0
        try state.preload(name: "greeter") { state, arguments in
            loads += 1
            return [["hello": try state.function { args in ["hello, \(args.first?.stringValue ?? "?")"] }, "name": arguments[0]]]
        }
        try state.preload(name: "util", source: "local M = {} function M.twice(x) return 2 * x end return M")
        try state.preload(name: "constants", module: ["answer": 42])
        #expect(try state.run("return require('greeter').hello('lua'), require('greeter').name") == ["hello, lua", "greeter"])
        #expect(loads == 1)   // cached in package.loaded
        #expect(try state.run("return require('util').twice(21), require('constants').answer") == [42, 42])
    }

    @Test func preloadedSourceErrorsNameTheModule() throws {
        try state.preload(name: "broken", source: "\nerror('module failed')")
        let error = runtimeError("require('broken')")
        #expect(error?.message == "broken.lua:2: module failed")
    }

    @Test func requireFromModuleDirectory() throws {
        // The module directory, and beside it a file a name with `..` would reach.
        let root = try TemporaryDirectory("lua", files: [
            "modules/screens/movie.lua": "return { name = 'movie' }", "portolan-secret.lua": "return 'secret'",
        ])
        defer { root.remove() }

        try state.setModuleDirectory(root.path("modules"))
        #expect(try state.run("return require('screens.movie').name") == ["movie"])
        // Names that could leave the directory are not searched at all.
        for name in ["..portolan-secret", "../portolan-secret", "/etc/passwd", "screens..movie", ".hidden", ""] {
            #expect(!LuaState.isValidModuleName(name), "\(name)")
            #expect(runtimeError("require('\(name)')")?.message.contains("not found") == true, "\(name)")
        }
        #expect(LuaState.isValidModuleName("screens.movie"))
    }
}

@Suite struct LuaFullStateTests {
    @Test func fullStateHasEveryLibraryAndPreloadWorksWithLuasRequire() throws {
        let state = try LuaState(sandboxed: false)
        #expect(try state.run("return type(io), type(os), type(debug), type(package)") == ["table", "table", "table", "table"])
        try state.preload(name: "constants", module: ["answer": 42])
        #expect(try state.run("return require('constants').answer") == [42])
        #expect(state.isSandboxed == false)
    }
}
