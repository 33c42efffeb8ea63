import Portolan
import PortolanLua
import Testing
import TestSupport

/// A switch node's `back` through the host: each of React Navigation's behaviours by its name.
@Suite struct TabBackBehaviorLuaTests {
    private static func app(back: String) -> String {
        """
        portolan.app { id = "root", kind = "switch", back = \(back), children = {
          { id = "a" }, { id = "b" }, { id = "c" },
        } }
        """
    }

    @Test func eachBehaviourIsDeclaredByItsName() async throws {
        let cases: [(String, [String])] = [
            ("first", [#""switch root -> a""#]), ("order", [#""switch root -> b""#]),
            ("history", [#""switch root -> a""#]), ("none", [#""nil""#]),
        ]
        for (behaviour, shown) in cases {
            let host = try await PortolanHost.quiet(loading: Self.app(back: "\"\(behaviour)\""))
            let ran = try await host.run("""
                portolan.switch_to("root", "c")
                local ran = portolan.back()
                return ran and table.concat(ran, ", ") or "nil"
                """, chunkName: "s.lua")
            #expect(ran == shown, "back = \(behaviour)")
        }
    }

    @Test func anUnknownBehaviourIsRefusedWithTheNames() async throws {
        do {
            _ = try await PortolanHost.quiet(loading: Self.app(back: "\"sideways\""))
            Issue.record("back = \"sideways\" was accepted")
        } catch {
            #expect("\(error)".contains(
                #"back must be one of first, initial, order, history, full_history, none, not "sideways""#), "\(error)")
        }
    }
}
