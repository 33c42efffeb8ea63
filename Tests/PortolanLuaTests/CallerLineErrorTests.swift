import Foundation
import Portolan
import PortolanLua
import Testing
import TestSupport

/// Every error the `portolan` module raises for a script's misuse names the script's file and line,
/// never a line of the module's own chunks (`portolan:296: portolan.wait expects…`): plain calls,
/// tail calls (`return portolan.wait("x")`, where Lua drops the caller's frame), errors the module
/// raises in Lua and errors its Swift functions raise through the trampoline.
@Suite struct CallerLineErrorTests {
    /// The chunk names of the module's parts, as a message would show them.
    static let internalChunks = ["portolan:", "portolan.printer:", "portolan.nodes:", "portolan.flows:", "portolan.urls:"]

    static let app = #"portolan.app { id = "root", kind = "switch", children = { { id = "a" }, { id = "b" } } }"#

    /// Misuses on line 3 of an app file whose line 1 declares the app.
    static let misusesWithAnApp = [
        #"portolan.wait("x")"#, "portolan.wait(-1)", "portolan.find(1)", #"portolan.find("a", 5)"#,
        "portolan.switch_to(1, 2)", "portolan.did_enter(5)", "portolan.did_leave(3)", "portolan.did_switch(1, 2)",
        #"portolan.did_switch("root", "nowhere")"#,
        "portolan.app(5)", "portolan.app { id = 5 }", #"portolan.app { id = "r", anywhere = 5 }"#,
        #"portolan.app { id = "r", anywhere = { 5 } }"#, #"portolan.app { id = "r", rollback = 5 }"#,
        #"portolan.app { id = "r", children = { { id = "r" } } }"#, #"portolan.app { id = "r", kind = "tab" }"#,
        "portolan.load(5)", #"portolan.load("../x.lua")"#, #"portolan.load("missing.lua")"#,
        "portolan.redirect(nil)", #"portolan.redirect("/a", 5)"#, "portolan.intercept(5)",
        #"portolan.on("bogus", print)"#, #"portolan.on("failed", 5)"#,
        "portolan.flow(5)", #"portolan.flow { name = "f", steps = 5 }"#, "portolan.step(5)", #"portolan.step("s", 5)"#,
        "portolan.redirect_rule(1)", #"portolan.redirect_rule("/a/:x<bogus>", "/b")"#, "portolan.match(5)",
        "portolan.x = 1",
    ]

    /// Misuses on line 3 of an app file that has declared no app yet: the module's Swift functions
    /// raise these through the trampoline.
    static let misusesBeforeAnApp = [
        "portolan.active_path()", "portolan.active_entries()", "portolan.tree()", "portolan.history()",
        #"portolan.find("a")"#,
    ]

    /// A short directory, so that Lua quotes the file's whole path (it cuts those over 60 bytes).
    private static func script(_ text: String) throws -> (directory: TemporaryDirectory, path: String) {
        let directory = try TemporaryDirectory("pl")
        let path = directory.path("misuse.lua")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return (directory, path)
    }

    private static func expectAtLine(_ misuse: String, firstLine: String) async throws {
        for statement in [misuse, "return " + misuse] where !(misuse.contains(" = 1") && statement.hasPrefix("return")) {
            let (directory, path) = try script(firstLine + "\nlocal _ = 0\n" + statement + "\n")
            defer { directory.remove() }
            let host = try PortolanHost()
            do {
                try await host.loadApp(.file(path))
                Issue.record("\(statement) raised nothing")
            } catch {
                #expect(error.message.hasPrefix(path + ":3: "), "\(statement): \(error.message)")
                for chunk in internalChunks {
                    #expect(!error.message.contains(chunk), "\(statement): \(error.message)")
                }
            }
        }
    }

    @Test(arguments: misusesWithAnApp) func aMisuseNamesTheScriptsLine(_ misuse: String) async throws {
        try await Self.expectAtLine(misuse, firstLine: Self.app)
    }

    @Test(arguments: misusesBeforeAnApp) func aMisuseBeforeAnyAppNamesTheScriptsLine(_ misuse: String) async throws {
        try await Self.expectAtLine(misuse, firstLine: "local _ = 1")
    }

    /// Misuses inside handlers, guards and interceptors fail the route, whose message names the
    /// handler's line.
    @Test func aMisuseInAHandlerOrGuardNamesItsLine() async throws {
        let cases = [
            ("enter", #"return portolan.plan("/x")"#), ("enter", "portolan.back()"), ("enter", #"return portolan.wait("x")"#),
            ("guard", "return portolan.redirect(nil)"), ("guard", #"return request.goes_to("a")"#),
            ("guard", #"return portolan.redirect("/a", 5)"#),
        ]
        for (field, body) in cases {
            let arguments = field == "guard" ? "node, request" : "node, entry, info"
            let (directory, path) = try Self.script("""
                portolan.app { id = "root", children = { { id = "a" }, { id = "b",
                  \(field) = function(\(arguments))
                    \(body)
                  end } } }
                """)
            defer { directory.remove() }
            let host = try PortolanHost()
            try await host.loadApp(.file(path))
            let result = await host.route(.path([Entry("root"), Entry("b")]))
            guard case .failure(let failure) = result else {
                Issue.record("\(body): the route did not fail")
                continue
            }
            #expect(failure.message.contains(path + ":3: "), "\(body): \(failure.message)")
            for chunk in Self.internalChunks {
                #expect(!failure.message.contains(chunk), "\(body): \(failure.message)")
            }
        }
    }
}
