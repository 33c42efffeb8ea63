import Foundation
import PortolanLua
import Testing
import TestSupport

/// The escape suite's attempts through the file system (issue 18, finding 3): every trap of
/// `ScriptFileTrap.all`, a file a pull request or a local user could plant in the app's directory,
/// through `require` and through `portolan.load`, in a host that loaded the app from that
/// directory. Each ends in a refusal that names why, runs and quotes nothing of the secret, and
/// leaves the host routing.
@Suite struct ScriptFileEscapeTests {
    enum Door: String, Sendable, CaseIterable { case require, load }

    @Test(arguments: ScriptFileTrap.all, Door.allCases)
    func aPlantedFileIsRefusedAndTheHostLivesOn(_ trap: ScriptFileTrap, _ door: Door) async throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let app = try ScriptFileTraps.plant(in: root)
        let host = try PortolanHost()
        await host.setOutput { _ in }
        try await host.loadApp(.file(app + "/app.lua"))
        let call = door == .require ? "require(\"\(trap.module)\")" : "portolan.load(\"\(trap.path)\")"
        let results = try await host.run("""
            local ok, why = pcall(function() return \(call) end)
            return ok, why, SECRET
            """, chunkName: "attack.lua")
        try #require(results.count == 3)
        #expect(results[0] == "false", "\(trap.name) via \(door): \(results)")
        #expect(results[1].contains(trap.reason), "\(trap.name) via \(door): \(results[1])")
        #expect(!results[1].contains(ScriptFileTraps.secretWord), "\(trap.name) via \(door): \(results[1])")
        #expect(results[2] == "nil")
        let next = await host.route(.ids("root", "a"))
        #expect((try? next.get()) != nil, "\(trap.name) via \(door): the next route failed: \(next)")
    }

    /// The same file through both doors: the same verdict, in the same words.
    @Test(arguments: ScriptFileTrap.all)
    func requireAndLoadGiveTheSameReason(_ trap: ScriptFileTrap) async throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let app = try ScriptFileTraps.plant(in: root)
        let host = try PortolanHost()
        await host.setOutput { _ in }
        try await host.loadApp(.file(app + "/app.lua"))
        let results = try await host.run("""
            local _, viaRequire = pcall(require, "\(trap.module)")
            local _, viaLoad = pcall(portolan.load, "\(trap.path)")
            return viaRequire:match("\\t([^\\t]*): '[^']*'$"), viaLoad:match("is refused: (.*)$")
            """, chunkName: "attack.lua")
        try #require(results.count == 2)
        #expect(results[0] != "nil" && results[0] == results[1], "\(trap.name): \(results)")
    }
}
