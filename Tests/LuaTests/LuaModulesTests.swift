import Foundation
import Testing
import TestSupport
import Lua

/// The sandboxed `require` remembers the files it read, and forgets them on demand so that they are read again.
@Suite struct LuaModulesTests {
    let state: LuaState
    /// The module directory, removed when the test ends.
    let scratch: TemporaryDirectory
    let directory: URL

    init() throws {
        state = try LuaState(sandboxed: true)
        scratch = try TemporaryDirectory("modules")
        directory = URL(fileURLWithPath: scratch.root)
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("screens"),
                                                withIntermediateDirectories: true)
        try state.setModuleDirectory(directory.path)
    }

    func write(_ source: String, to name: String) throws {
        try source.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
    }

    /// Each load of the module counts itself in the global `loads`.
    func writeMovie(version: Int) throws {
        try write("loads = (loads or 0) + 1 return { version = \(version) }", to: "screens/movie.lua")
    }

    @Test func requireReadsOnlyRegularFilesOfBoundedSize() throws {
        defer { scratch.remove() }
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("folder.lua"), withIntermediateDirectories: true)
        try Data(repeating: UInt8(ascii: " "), count: LuaState.maximumChunkFileSize + 1)
            .write(to: directory.appendingPathComponent("huge.lua"))
        let folder = #expect(throws: LuaError.self) { try state.run("require 'folder'") }
        #expect(folder?.message.contains("not a regular file") == true, "\(folder?.message ?? "")")
        let huge = #expect(throws: LuaError.self) { try state.run("require 'huge'") }
        #expect(huge?.message.contains("larger than 16 MiB") == true, "\(huge?.message ?? "")")
    }

    @Test func aModuleRequiredTwiceRunsOnceAndIsListed() throws {
        defer { scratch.remove() }
        try writeMovie(version: 1)
        #expect(try state.requiredFiles == [])
        #expect(try state.run("require('screens.movie') return require('screens.movie').version, loads") == [1, 1])
        #expect(try state.requiredFiles == [directory.path + "/screens/movie.lua"])
        #expect(state.stackTop == 0)
    }

    @Test func forgottenModulesAreReadAgain() throws {
        defer { scratch.remove() }
        try writeMovie(version: 1)
        try write("return 'plain'", to: "plain.lua")
        #expect(try state.run("return require('screens.movie').version, (require('plain'))") == [1, "plain"])
        #expect(try state.requiredFiles == [directory.path + "/plain.lua", directory.path + "/screens/movie.lua"])

        try writeMovie(version: 2)
        try state.forgetRequiredModules()
        #expect(try state.requiredFiles == [])
        #expect(try state.run("return require('screens.movie').version, loads") == [2, 2])
        #expect(try state.requiredFiles == [directory.path + "/screens/movie.lua"])
        #expect(state.stackTop == 0)
    }

    @Test func preloadedModulesSurviveForgetting() throws {
        defer { scratch.remove() }
        var loads = 0
        try state.preload(name: "constants") { _, _ in
            loads += 1
            return [["answer": 42]]
        }
        try writeMovie(version: 1)
        #expect(try state.run("return require('constants').answer, require('screens.movie').version") == [42, 1])
        try state.forgetRequiredModules()
        #expect(try state.run("return require('constants').answer, require('screens.movie').version") == [42, 1])
        #expect(loads == 1)
        #expect(try state.run("return loads") == [2])
        #expect(try state.requiredFiles == [directory.path + "/screens/movie.lua"])
    }

    @Test func aModuleThatFailsIsNotListed() throws {
        defer { scratch.remove() }
        try write("error('broken')", to: "broken.lua")
        try write("return {", to: "unparsable.lua")
        for name in ["broken", "unparsable", "missing"] {
            #expect(throws: LuaError.self) { try state.run("require('\(name)')") }
        }
        #expect(try state.requiredFiles == [])
    }

    @Test func aFullStateListsNothing() throws {
        defer { scratch.remove() }
        let full = try LuaState(sandboxed: false)
        #expect(try full.run("return require('string') == string") == [true])
        #expect(try full.requiredFiles == [])
        try full.forgetRequiredModules()
        #expect(try full.run("return require('string') == string") == [true])
    }
}
