import Foundation
import Testing
import TestSupport

/// `:reload` in a real terminal keeps the session (issue 20, §4): the new rules' guards are asked
/// about the active path and the REPL says what they did; `portolan.state` is kept.
@Suite struct ReplReloadSessionCLITests {
    /// `account` needs a login; `stateLine` says where `logged_in` lives, `reads` how the guard reads it.
    private static func app(stateLine: String, reads: String) -> String {
        """
        \(stateLine)
        portolan.app { id = "root", kind = "switch", active = "home", children = {
          { id = "home", route = "/home" },
          { id = "login", route = "/login" },
          { id = "account", route = "/account", guard = function()
              if not \(reads) then return portolan.redirect({ "root", "login" }, { resume = true }) end
            end },
        } }

        """
    }

    @Test(.enabled(if: ReplTmux.executable != nil, "tmux is not installed (scripts/bootstrap.sh installs it)"), .timeLimit(.minutes(10)))
    func aReloadSaysWhatTheGuardsDidAndTheStateStays() throws {
        let tmux = try ReplTmux()
        defer { tmux.kill() }
        let globalApp = Self.app(stateLine: "logged_in = false", reads: "logged_in")
        let directory = try TemporaryDirectory("reload", files: ["app.lua": globalApp])
        defer { directory.remove() }
        try tmux.start(ReplBinary.path, arguments: ["repl", "app.lua"], in: directory.root, environment: ["NO_COLOR": "1"])
        try tmux.waitForScreen { $0.contains(":help") && $0.hasSuffix("portolan> ") }

        // A global the script sets at its top logs the session out: the reload says where that led.
        tmux.type("logged_in = true")
        try tmux.waitForScreen { $0.hasSuffix("portolan> logged_in = true\nportolan> ") }
        tmux.type("/account")
        try tmux.waitForScreen { $0.hasSuffix("active: root > account\nportolan> ") }
        tmux.type(":reload")
        try tmux.waitForScreen {
            $0.hasSuffix("""
                portolan> :reload
                reloaded
                the guards of the new rules, asked again about the active path:
                  switch root -> login
                active: root > login
                portolan> 
                """)
        }

        // `portolan.state` keeps the login: the guards pass, and the REPL says nothing more.
        try directory.write("app.lua", Self.app(
            stateLine: "local state = portolan.initial_state { logged_in = false }", reads: "state.logged_in"))
        tmux.type(":reload")
        // The key is new to the session's state: the reload says it took its first value (issue 32).
        try tmux.waitForScreen {
            $0.hasSuffix("""
                portolan> :reload
                reloaded
                carried to the new rules:
                  added portolan.state.logged_in with its initial value: the rules name it, and the state had none
                active: root > login
                portolan> 
                """)
        }
        tmux.type("portolan.state.logged_in = true")
        try tmux.waitForScreen { $0.hasSuffix("portolan> portolan.state.logged_in = true\nportolan> ") }
        tmux.type("/account")
        try tmux.waitForScreen { $0.hasSuffix("active: root > account\nportolan> ") }
        tmux.type(":reload")
        try tmux.waitForScreen { $0.hasSuffix("portolan> :reload\nreloaded\nactive: root > account\nportolan> ") }

        tmux.type(":quit")
        try tmux.waitForExit()
    }
}
