import Portolan
import PortolanLua
import TestSupport
import Testing

/// Issue 32: what a rules change brings onto the active path runs through the new rules'
/// handlers once they are in place, and is reported (`ReloadResult.entered`). Before, the tab
/// that replaced a vanished one showed without its switch handler.
@Suite struct ReloadArrivalTests {
    /// Tabs whose switch notes each switch in the global `LOG`, with the rules' `tag`.
    static func tabs(_ tag: String, _ children: String, switchHandler: String? = nil) -> String {
        """
        LOG = LOG or {}
        portolan.app { id = "root", kind = "switch", active = "books", keep = true,
          switch = \(switchHandler ?? #"function(_, child) table.insert(LOG, "switch to " .. child.id .. " by \#(tag)") end"#),
          children = { \(children) } }
        """
    }

    static func log(of host: PortolanHost) async throws -> String {
        try await host.evaluate("table.concat(LOG, ', ')").first ?? ""
    }

    @Test func theTabThatReplacesAVanishedOneIsSwitchedToByTheNewRules() async throws {
        let host = try await PortolanHost.quiet(loading: Self.tabs("v1", #"{ id = "books" }, { id = "cart" }"#))
        #expect(await host.route(.path(["root", "cart"])).isSuccess)
        let reloaded = try await host.reload(.source(Self.tabs("v2", #"{ id = "books" }, { id = "news" }"#), chunkName: "app.lua"))
        #expect(reloaded.left == [])
        #expect(texts(reloaded.entered) == ["switch root -> books"])
        #expect(await host.router?.activePath.map(\.id) == ["root", "books"])
        #expect(try await Self.log(of: host) == #""switch to cart by v1, switch to books by v2""#)
    }

    /// A handler of the new rules that fails on what they bring fails the reload: the previous
    /// rules, tree and state stay.
    @Test func anArrivalThatFailsKeepsThePreviousRules() async throws {
        let host = try await PortolanHost.quiet(loading: Self.tabs("v1", #"{ id = "books" }, { id = "cart" }"#))
        #expect(await host.route(.path(["root", "cart"])).isSuccess)
        let failing = Self.tabs("v2", #"{ id = "books" }, { id = "news" }"#, switchHandler: #"function() error("no books today") end"#)
        do {
            _ = try await host.reload(.source(failing, chunkName: "app.lua"))
            Issue.record("the reload succeeded")
        } catch {
            #expect(error.message.contains("no books today"), "\(error.message)")
        }
        #expect(await host.router?.activePath.map(\.id) == ["root", "cart"])
        #expect(await host.route(.path(["root", "books"])).isSuccess, "the previous rules serve")
        #expect(try await Self.log(of: host) == #""switch to cart by v1, switch to books by v1""#)
    }
}
