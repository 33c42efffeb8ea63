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
}
