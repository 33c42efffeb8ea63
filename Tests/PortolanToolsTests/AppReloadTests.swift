import Foundation
import Portolan
import PortolanLua
import TestSupport
@testable import PortolanTools
import Testing

/// `:reload` and `--watch` see an edit to a module the app requires, not only to the app file.
@Suite struct AppReloadTests {
    static func files(title: String) -> [String: String] {
        [
            "helpers.lua": "return { title = \"\(title)\" }",
            "app.lua": #"""
                local helpers = require "helpers"
                portolan.app { id = "root", children = { { id = "home", enter = function() print(helpers.title) end } } }
                """#,
        ]
    }

    @Test func reloadReadsAnEditedModule() async throws {
        let directory = try TemporaryDirectory(files: Self.files(title: "first"))
        defer { directory.remove() }
        let output = Locked<[String]>([])
        let session = try await ReplSession.start(appFile: directory.path("app.lua"), output: { line in output.withLock { $0.append(line) } })
        await session.handle("{ 'root', 'home' }")
        await session.handle("portolan.route { 'root', 'home' }")
        #expect(output.value.contains("first"))
        try directory.write("helpers.lua", #"return { title = "second" }"#)
        await session.handle(":reload")
        await session.handle("portolan.route { 'root' }")
        output.withLock { $0 = [] }
        await session.handle("portolan.route { 'root', 'home' }")
        #expect(output.value.contains("second"), "\(output.value)")
    }

    @Test func watchWatchesRequiredFiles() async throws {
        let directory = try TemporaryDirectory(files: Self.files(title: "first"))
        defer { directory.remove() }
        let output = Locked<[String]>([])
        let session = try await ReplSession.start(appFile: directory.path("app.lua"), output: { line in output.withLock { $0.append(line) } })
        let watched = await session.watchedFiles
        #expect(watched.contains(directory.path("app.lua")))
        #expect(watched.contains { $0.hasSuffix("/helpers.lua") }, "\(watched)")
        // A later mtime than the first write, whatever the file system's resolution.
        try await Task.sleep(for: .milliseconds(20))
        try directory.write("helpers.lua", #"return { title = "watched edit" }"#)
        try FileManager.default.setAttributes(
            [.modificationDate: Date().addingTimeInterval(5)], ofItemAtPath: directory.path("helpers.lua"))
        #expect(await session.reloadIfChanged())
        output.withLock { $0 = [] }
        await session.handle("portolan.route { 'root', 'home' }")
        #expect(output.value.contains("watched edit"), "\(output.value)")
    }

    /// The reload's own route (the new rules' guards asked again) runs on the router the reload made:
    /// the session follows the host's events, so `:events on` shows it (it used to follow the new
    /// router only after the reload, and missed it).
    @Test func theReloadsOwnRouteIsShownUnderEventsOn() async throws {
        let directory = try TemporaryDirectory(files: ["app.lua": """
            logged_in = false
            portolan.app { id = "root", kind = "switch", children = {
              { id = "login" },
              { id = "account", guard = function() if not logged_in then return portolan.redirect { "root", "login" } end end },
            } }
            """])
        defer { directory.remove() }
        let output = Locked<[String]>([])
        let session = try await ReplSession.start(appFile: directory.path("app.lua"), output: { line in output.withLock { $0.append(line) } })
        await session.handle("logged_in = true")
        await session.handle("portolan.route { 'root', 'account' }")
        await session.handle(":events on")
        output.withLock { $0 = [] }
        await session.handle(":reload")
        let shown = output.value.filter { $0.hasPrefix("· ") }
        #expect(shown.contains("· will_route root > account"), "\(output.value)")
        #expect(shown.contains("· redirected root > account -> root > login"), "\(output.value)")
    }
}
