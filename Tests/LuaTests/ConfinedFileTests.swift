import Foundation
import Lua
import Testing
import TestSupport

/// Issue 18, finding 3: the one confined read of a script's files (ConfinedFile.c), which the
/// sandbox's `require` and `portolan.load` share, by both of its ways of opening: openat2, and the
/// component-by-component fallback for kernels before 5.6.
@Suite struct ConfinedFileTests {
    static let ways: [ScriptFileWay] = [.best, .eachComponent]

    @Test(arguments: ScriptFileTrap.all)
    func eachTrapIsRefusedBothWaysUnread(_ trap: ScriptFileTrap) throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let app = try ScriptFileTraps.plant(in: root)
        for way in Self.ways {
            let refusal = #expect(throws: ScriptFileRefusal.self) {
                try LuaState.chunkBytes(ofFile: trap.path, beneath: app, way: way)
            }
            #expect(refusal?.reason.contains(trap.reason) == true, "\(way): \(String(describing: refusal))")
            #expect(refusal?.isMissing == false, "\(way)")
        }
    }

    @Test(arguments: ScriptFileTrap.all)
    func requireRefusesEachTrapAndNamesWhy(_ trap: ScriptFileTrap) throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let app = try ScriptFileTraps.plant(in: root)
        let state = try LuaState(sandboxed: true)
        try state.setModuleDirectory(app)
        let results = try state.run("""
            local ok, why = pcall(require, "\(trap.module)")
            return ok, why, SECRET
            """)
        try #require(results.count == 3)
        #expect(results[0] == false)
        let message = results[1].stringValue ?? ""
        let file = app + "/" + trap.module.replacingOccurrences(of: ".", with: "/") + ".lua"
        #expect(message.contains("module '\(trap.module)' not found:\n\tno field package.preload['\(trap.module)']\n\t"), "\(message)")
        #expect(message.hasSuffix(": '\(file)'"), "\(message)")
        #expect(message.contains(trap.reason), "\(message)")
        #expect(!message.contains(ScriptFileTraps.secretWord), "\(message)")
        #expect(results[2] == .nil)
        #expect(try state.requiredFiles == [])
    }

    @Test func filesInsideAreReadBothWaysAndNothingLeaves() throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let app = try ScriptFileTraps.plant(in: root)
        for way in Self.ways {
            for path in ["more.lua", "./more.lua", "screens/list.lua", "screens//list.lua", "./screens/./list.lua"] {
                let text = try LuaState.chunkBytes(ofFile: path, beneath: app, way: way)
                #expect(String(decoding: text, as: UTF8.self).hasPrefix("return '"), "\(way) \(path)")
            }
            for path in ["no-such.lua", "screens/no-such.lua", "more.lua/x.lua", "nowhere/x.lua"] {
                let refusal = #expect(throws: ScriptFileRefusal.self) { try LuaState.chunkBytes(ofFile: path, beneath: app, way: way) }
                #expect(refusal?.isMissing == true, "\(way) \(path)")
            }
            for path in ["../config.lua", "screens/../../config.lua", "/etc/passwd", root.path(".env")] {
                let refusal = #expect(throws: ScriptFileRefusal.self) { try LuaState.chunkBytes(ofFile: path, beneath: app, way: way) }
                #expect(refusal?.reason == "leaves the directory", "\(way) \(path)")
            }
        }
    }

    /// Names are bytes: a file named in NFC is read by its NFC name, and its NFD spelling names
    /// nothing, however equal the two are to Unicode.
    @Test func aNameIsItsBytesNotItsUnicodeForm() throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let app = try ScriptFileTraps.plant(in: root)
        try root.write(ScriptFileTraps.appDirectory + "/caf\u{E9}.lua", "return 'nfc'")
        for way in Self.ways {
            #expect(try LuaState.chunkBytes(ofFile: "caf\u{E9}.lua", beneath: app, way: way) == Array("return 'nfc'".utf8))
            let refusal = #expect(throws: ScriptFileRefusal.self) {
                try LuaState.chunkBytes(ofFile: "cafe\u{301}.lua", beneath: app, way: way)
            }
            #expect(refusal?.isMissing == true, "\(way)")
        }
    }

    /// A module swapped for a link to `../.env` and back, as fast as a thread can, while it is
    /// required: no check is separate from the open, so no interleaving reads the secret. Bounded
    /// by the number of requires, not by time.
    @Test func swappingAModuleForALinkNeverReadsTheSecret() throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let app = try ScriptFileTraps.plant(in: root)
        let state = try LuaState(sandboxed: true)
        try state.setModuleDirectory(app)
        let stop = StopFlag()
        let swapper = ScriptFileTraps.swapper(in: app, name: "swap.lua", stop: stop)
        swapper.start()
        defer { stop.raiseAndWait(); withExtendedLifetime(root) {} }
        var outcomes: [String: Int] = [:]
        var leaked = false
        for _ in 0..<2_000 where !leaked {
            let results = try state.run("""
                local ok, result = pcall(require, "swap")
                return ok and result or result:match("\\t([^:\\t]*): '") or result, SECRET
                """)
            try #require(results.count == 2)
            outcomes[results[0].stringValue ?? "\(results[0])", default: 0] += 1
            leaked = results[1] != .nil
            try state.forgetRequiredModules()
            for way in Self.ways {
                let text = (try? LuaState.chunkBytes(ofFile: "swap.lua", beneath: app, way: way)) ?? []
                leaked = leaked || String(decoding: text, as: UTF8.self).contains(ScriptFileTraps.secretWord)
            }
        }
        #expect(!leaked, "\(outcomes)")
        let expected: Set = ["inside", "a symbolic link on the way, and scripts follow none", "no file"]
        #expect(Set(outcomes.keys).isSubset(of: expected), "\(outcomes)")
    }
}
