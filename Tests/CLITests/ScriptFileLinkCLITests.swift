import Foundation
import Testing
import TestSupport

/// Issue 18, finding 3, as CI meets it: a pull request adds `config.lua -> ../.env` to the app's
/// directory, and `graph`, `check` and `test` run the app, which requires it. No command may run
/// or quote the secret; each names the link. A FIFO named like a script, which a local user could
/// leave, fails at once instead of blocking the command.
@Suite struct ScriptFileLinkCLITests {
    /// `.env` is Lua whose error quotes it: `s3cr3t` is read as a global.
    static let secret = "SECRET_TOKEN=s3cr3t-value\n"

    private static func checkout(app: String) throws -> (root: TemporaryDirectory, app: String) {
        let root = try TemporaryDirectory("cli", files: [".env": secret])
        let directory = root.path("app")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try app.write(toFile: directory + "/app.lua", atomically: true, encoding: .utf8)
        try #"scenario("home", function() expect(portolan.route("/"), {}) end)"#
            .write(toFile: directory + "/s.lua", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: directory + "/config.lua", withDestinationPath: "../.env")
        #expect(mkfifo(directory + "/pipe.lua", 0o644) == 0)
        return (root, directory)
    }

    private static let commands = [["graph", "app.lua"], ["check", "app.lua"], ["test", "--app", "app.lua", "s.lua"]]

    @Test func noCommandReadsTheSecretThroughALinkRequired() async throws {
        let (root, app) = try Self.checkout(app: #"require "config" portolan.app { id = "root" }"#)
        defer { root.remove() }
        for arguments in Self.commands {
            let run = try await PortolanBinary.run(arguments, in: app)
            let said = run.stdout + run.stderr
            #expect(run.status == 1, "\(arguments): \(said)")
            #expect(!said.contains("s3cr3t"), "\(arguments): \(said)")
            #expect(said.contains("module 'config' not found") && said.contains("symbolic link"), "\(arguments): \(said)")
        }
    }

    @Test(.timeLimit(.minutes(10))) func noCommandBlocksOnAFIFOOrReadsALinkLoaded() async throws {
        let (root, app) = try Self.checkout(app: """
            local _, pipe = pcall(portolan.load, "pipe.lua")
            local _, link = pcall(portolan.load, "config.lua")
            portolan.app { id = "root" }
            error(pipe .. " / " .. link)
            """)
        defer { root.remove() }
        for arguments in Self.commands {
            let run = try await PortolanBinary.run(arguments, in: app)
            let said = run.stdout + run.stderr
            #expect(run.status == 1, "\(arguments): \(said)")
            #expect(!said.contains("s3cr3t"), "\(arguments): \(said)")
            #expect(said.contains("'pipe.lua' in '") && said.contains("is refused: not a regular file"), "\(arguments): \(said)")
            #expect(said.contains("'config.lua' in '") && said.contains("is refused: a symbolic link"), "\(arguments): \(said)")
        }
    }
}
