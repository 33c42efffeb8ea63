import Foundation
import Testing
import TestSupport
@testable import Lua

@Suite struct LuaErrorTests {
    let state: LuaState

    init() throws {
        state = try LuaState()
    }

    @Test func runtimeErrorHasChunkNameLineAndTraceback() throws {
        let source = """
            local function helper()
              error("boom")
            end
            helper()
            """
        let error = #expect(throws: LuaError.self) { try state.run(source, chunkName: "app.lua") }
        #expect(error?.kind == .runtime)
        #expect(error?.message == "app.lua:2: boom")
        let traceback = error?.traceback ?? ""
        #expect(traceback.hasPrefix("stack traceback:"))
        #expect(traceback.contains("app.lua:2: in"))
        #expect(traceback.contains("app.lua:4: in main chunk"))
        #expect(state.stackTop == 0)
    }

    @Test func operationErrorIsRuntime() throws {
        let error = #expect(throws: LuaError.self) { try state.run("local t = nil\nreturn t.x", chunkName: "app.lua") }
        #expect(error?.kind == .runtime)
        #expect(error?.message.hasPrefix("app.lua:2: attempt to index") == true)
    }

    @Test func nonStringErrorObjectsAreDescribed() throws {
        let table = #expect(throws: LuaError.self) {
            try state.run("error(setmetatable({}, { __tostring = function() return 'custom' end }))")
        }
        #expect(table?.message == "custom")
        let number = #expect(throws: LuaError.self) { try state.run("error(42)") }
        #expect(number?.message == "42")
        #expect(state.stackTop == 0)
    }

    @Test func syntaxError() throws {
        let error = #expect(throws: LuaError.self) { try state.load("x = = 1", chunkName: "app.lua") }
        #expect(error?.kind == .syntax)
        #expect(error?.message.hasPrefix("app.lua:1:") == true)
        #expect(error?.isIncompleteInput == false)
        #expect(state.stackTop == 0)
    }

    @Test func incompleteInputIsDetected() throws {
        for source in ["if x then", "function f()", "return {", "x = 'unfinished"] {
            let error = #expect(throws: LuaError.self) { try state.load(source, chunkName: "stdin") }
            #expect(error?.kind == .syntax)
            #expect(error?.isIncompleteInput == true, "\(source): \(error?.message ?? "")")
        }
        #expect(state.stackTop == 0)
    }

    @Test func chunkNamesAsGiven() throws {
        for (name, prefix) in [("app.lua", "app.lua:1:"), ("@scripts/app.lua", "scripts/app.lua:1:"), ("=repl", "repl:1:")] {
            let error = #expect(throws: LuaError.self) { try state.run("error('x')", chunkName: name) }
            #expect(error?.message.hasPrefix(prefix) == true, "\(name)")
        }
    }

    @Test func loadFileAndMissingFile() throws {
        let directory = try TemporaryDirectory("lua", files: ["script.lua": "#!/usr/bin/env lua\nlocal x = 1\nerror('in file')\n"])
        defer { directory.remove() }
        let path = directory.path("script.lua")
        let error = #expect(throws: LuaError.self) { try state.run(contentsOfFile: path, chunkName: "script.lua") }
        #expect(error?.message == "script.lua:3: in file")   // the shebang line still counts
        let missing = #expect(throws: LuaError.self) { try state.load(contentsOfFile: "/nonexistent/x.lua") }
        #expect(missing?.kind == .file)
    }

    @Test func onlyRegularFilesOfBoundedSizeAreRead() throws {
        let scratch = try TemporaryDirectory("lua")
        defer { scratch.remove() }
        let directory = scratch.root
        let notAFile = #expect(throws: LuaError.self) { try state.load(contentsOfFile: directory) }
        #expect(notAFile?.message == "cannot read \(directory): not a regular file")
        let huge = directory + "/huge.lua"
        try Data(repeating: UInt8(ascii: " "), count: LuaState.maximumChunkFileSize + 1).write(to: URL(fileURLWithPath: huge))
        let tooBig = #expect(throws: LuaError.self) { try state.load(contentsOfFile: huge) }
        #expect(tooBig?.message == "cannot read \(huge): larger than 16 MiB, the most a script may be")
        let justFits = directory + "/fits.lua"
        try (String(repeating: " ", count: LuaState.maximumChunkFileSize - 12) + "return 'ok'").write(
            toFile: justFits, atomically: true, encoding: .utf8)
        #expect(try state.run(contentsOfFile: justFits) == ["ok"])
    }

    @Test func stateStaysUsableAfterManyErrors() throws {
        for index in 0..<200 {
            _ = try? state.run("error('e\(index)')")
            _ = try? state.load("syntax error here")
            _ = try? state.call(.integer(3))   // calling a number
        }
        #expect(state.stackTop == 0)
        #expect(try state.run("return 'alive'") == ["alive"])
    }
}
