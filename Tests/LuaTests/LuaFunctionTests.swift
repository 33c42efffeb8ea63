import Testing
@testable import Lua

struct BadInput: Error, CustomStringConvertible {
    var description: String { "bad input from Swift" }
}

@Suite struct LuaFunctionTests {
    let state: LuaState

    init() throws {
        state = try LuaState()
    }

    @Test func swiftFunctionCalledFromLua() throws {
        try state.register(name: "add") { arguments in
            let sum = arguments.compactMap(\.intValue).reduce(0, +)
            return [.integer(sum), .string("done")]
        }
        #expect(try state.run("return add(1, 2, 39)") == [42, "done"])
        #expect(state.stackTop == 0)
    }

    @Test func swiftFunctionReceivesTablesAndState() throws {
        try state.register(name: "describe") { state, arguments in
            // Calls back into Lua from Swift, through the state it was given.
            let upper = try state.call(state.load("return string.upper(...)"), [arguments[0]["name"]])
            return [upper.first ?? .nil, .integer(Int64(arguments.count))]
        }
        #expect(try state.run("return describe({ name = 'movie' }, nil, 3)") == ["MOVIE", 3])
    }

    @Test func swiftErrorIsALuaErrorCatchableWithPcall() throws {
        try state.register(name: "fail") { _ in throw BadInput() }
        let results = try state.run("""
            local ok, message = pcall(function() fail() end)
            return ok, message
            """, chunkName: "app.lua")
        try #require(results.count == 2)
        #expect(results[0] == false)
        // Positioned like error(): the Lua line that called the Swift function.
        #expect(results[1] == "app.lua:1: bad input from Swift")
        #expect(state.stackTop == 0)
    }

    @Test func uncaughtSwiftErrorSurfacesAsLuaError() throws {
        try state.register(name: "fail") { _ in throw BadInput() }
        let error = #expect(throws: LuaError.self) {
            try state.run("local x = 1\nfail()", chunkName: "app.lua")
        }
        #expect(error?.kind == .runtime)
        #expect(error?.message == "app.lua:2: bad input from Swift")
        #expect(error?.traceback?.contains("app.lua:2") == true)
        #expect(state.stackTop == 0)
        #expect(try state.run("return 1") == [1])
    }

    @Test func luaErrorThroughSwiftKeepsItsMessage() throws {
        try state.register(name: "callback") { state, arguments in
            try state.call(arguments[0])
        }
        let results = try state.run("""
            return pcall(callback, function() error("inner failure") end)
            """, chunkName: "app.lua")
        #expect(results == [false, "app.lua:1: inner failure"])
    }

    @Test func swiftFunctionAsAValue() throws {
        let twice = try state.function { arguments in [.integer((arguments.first?.intValue ?? 0) * 2)] }
        let apply = try state.load("local f, x = ... return f(f(x))")
        #expect(try state.call(apply, [twice, 5]) == [20])
    }

    @Test func swiftFunctionsAreReleasedWhenCollected() throws {
        final class Token {}
        weak var weakToken: Token?
        do {
            let token = Token()
            weakToken = token
            try state.register(name: "holder") { _ in _ = token; return [] }
        }
        #expect(weakToken != nil)
        try state.run("holder = nil")
        try state.collectGarbage()
        #expect(weakToken == nil)
    }

    @Test func swiftFunctionsAreReleasedWhenStateCloses() throws {
        final class Token {}
        weak var weakToken: Token?
        do {
            let state = try LuaState()
            let token = Token()
            weakToken = token
            try state.register(name: "holder") { _ in _ = token; return [] }
            #expect(weakToken != nil)
        }
        #expect(weakToken == nil)
    }
}
