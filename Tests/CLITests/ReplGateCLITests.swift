import Foundation
import Testing
import TestSupport

/// `portolan repl --watch` in a real terminal, on an app whose directory is a bundle's source: an
/// edit that fails a scenario is refused with its stage and reason, and the session stays where it
/// was under the rules it had; the edit that fixes it is reloaded.
@Suite struct ReplGateCLITests {
    static let manifest = #"{ "id": "com.example.rules", "version": 1, "entry": "app.lua", "scenarios": ["scenarios/about.lua"] }"#
    static let scenario = """
        scenario("about opens", function()
          assert(portolan.route { "root", "about" })
          expect(portolan.active_path(), { "root", "about" })
        end)

        """

    static func app(_ screens: String) -> String {
        "portolan.app { id = \"root\", children = { \(screens) } }\n"
    }

    @Test(.enabled(if: ReplTmux.executable != nil, "tmux is not installed (scripts/bootstrap.sh installs it)"), .timeLimit(.minutes(10)))
    func aRefusedEditLeavesTheSessionAsItWas() throws {
        let tmux = try ReplTmux()
        defer { tmux.kill() }
        let directory = try TemporaryDirectory("gate", files: [
            "bundle.json": Self.manifest, "app.lua": Self.app(#"{ id = "home" }, { id = "about" }"#),
            "scenarios/about.lua": Self.scenario,
        ])
        defer { directory.remove() }
        try tmux.start(ReplBinary.path, arguments: ["repl", "--watch", "app.lua"], in: directory.root, environment: ["NO_COLOR": "1"])
        try tmux.waitForScreen {
            $0.contains("watching app.lua, bundle.json, scenarios/about.lua for changes\neach edit goes through the gate of bundle.json first")
                && $0.hasSuffix("portolan> ")
        }
        tmux.type("/root/about")
        try tmux.waitForScreen { $0.contains("active: root > about") && $0.hasSuffix("portolan> ") }

        // A product person renames the screen: the rules load and lint, and the scenario fails.
        try Self.app(#"{ id = "home" }, { id = "info" }"#).write(toFile: directory.path("app.lua"), atomically: true, encoding: .utf8)
        try tmux.waitForScreen { $0.contains("the rules in service are unchanged") && $0.hasSuffix("portolan> ") }
        // The pane is 100 columns wide: the line wraps after `about`.
        let screen = tmux.screen
        #expect(screen.contains("error: app.lua changed: rejected at stage 5 (scenarios): scenario failed: scenarios/about.lua: about\n opens: "), "\(screen)")
        #expect(screen.contains("no node 'about' is declared"), "\(screen)")
        tmux.type("portolan.active_path()")
        try tmux.waitForScreen { $0.hasSuffix("portolan> portolan.active_path()\n{ \"root\", \"about\" }\nportolan> ") }

        // The scenario follows the rename: the gate passes, and the edit is in service.
        try Self.scenario.replacingOccurrences(of: "about", with: "info")
            .write(toFile: directory.path("scenarios/about.lua"), atomically: true, encoding: .utf8)
        try tmux.waitForScreen {
            $0.contains("scenarios/about.lua changed: passed the gate (load, check, 1 scenario file); reloaded") && $0.hasSuffix("portolan> ")
        }
        tmux.type("/root/info")
        try tmux.waitForScreen { $0.contains("active: root > info") && $0.hasSuffix("portolan> ") }
        tmux.type(":quit")
        try tmux.waitForExit()
    }
}
