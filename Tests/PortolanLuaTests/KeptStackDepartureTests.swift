import Portolan
import PortolanLua
import TestSupport
import Testing

/// Issue 32: a screen that a rules change or a restore takes away from another tab's kept stack
/// leaves through its `leave` handler, by the rules that entered it, and is reported, as a
/// screen on the active path is. Before, it was dropped without a word.
@Suite struct KeptStackDepartureTests {
    /// A shop whose tabs keep their stacks; each screen of the books tab notes its `enter` and
    /// `leave` in the global `LOG`, with the rules' `tag`.
    static func shop(_ tag: String, books: String, leaveOfProduct: String = #"note("leave product")"#) -> String {
        """
        LOG = LOG or {}
        local function note(what) return function() table.insert(LOG, what .. " by \(tag)") end end
        portolan.app { id = "root", kind = "switch", active = "books", keep = true, children = {
          { id = "books", children = { \(books) } },
          { id = "cart" },
        } }
        """
            .replacingOccurrences(of: "LEAVE_PRODUCT", with: leaveOfProduct)
    }

    static let productAndReviews = #"""
        { id = "product", enter = note("enter product"), leave = LEAVE_PRODUCT,
          children = { { id = "reviews", enter = note("enter reviews"), leave = note("leave reviews") } } }
        """#

    /// A host on the cart tab, with `books > product > reviews` kept in the other tab.
    static func hostOnTheCart(leaveOfProduct: String = #"note("leave product")"#) async throws -> PortolanHost {
        let host = try await PortolanHost.quiet(loading: shop("v1", books: productAndReviews, leaveOfProduct: leaveOfProduct))
        #expect(await host.route(.path(["root", "books", "product", "reviews"])).isSuccess)
        #expect(await host.route(.path(["root", "cart"])).isSuccess)
        return host
    }

    static func log(of host: PortolanHost) async throws -> String {
        try await host.evaluate("table.concat(LOG, ', ')").first ?? ""
    }

    @Test func aReloadLeavesTheKeptScreensItTakesAwayBottomUp() async throws {
        let host = try await Self.hostOnTheCart()
        let reloaded = try await host.reload(.source(Self.shop("v2", books: #"{ id = "item" }"#), chunkName: "app.lua"))
        #expect(texts(reloaded.left) == ["leave reviews", "leave product"])
        #expect(await host.router?.activePath.map(\.id) == ["root", "cart"], "the active path is untouched")
        #expect(try await Self.log(of: host) == #""enter product by v1, enter reviews by v1, leave reviews by v1, leave product by v1""#)
    }

    @Test func aKeptScreenThatStaysDoesNotLeave() async throws {
        let host = try await Self.hostOnTheCart()
        let reloaded = try await host.reload(.source(Self.shop("v2", books: #"{ id = "product" }"#), chunkName: "app.lua"))
        #expect(texts(reloaded.left) == ["leave reviews"])
        #expect(try await Self.log(of: host) == #""enter product by v1, enter reviews by v1, leave reviews by v1""#)
    }

    /// A kept screen whose `leave` fails fails the reload; the screens of the stack that had
    /// left come back through their `enter`, and the previous rules stay.
    @Test func aKeptLeaveThatFailsKeepsThePreviousRules() async throws {
        let host = try await Self.hostOnTheCart(leaveOfProduct: #"function() error("product cannot go") end"#)
        do {
            _ = try await host.reload(.source(Self.shop("v2", books: #"{ id = "item" }"#), chunkName: "app.lua"))
            Issue.record("the reload succeeded")
        } catch {
            #expect(error.message.contains("product cannot go"), "\(error.message)")
        }
        #expect(try await Self.log(of: host) == #""enter product by v1, enter reviews by v1, leave reviews by v1, enter reviews by v1""#)
        #expect(await host.route(.path(["root", "books", "product", "reviews"])) == .success([.switch(Entry("root"), to: Entry("books"))]))
    }

    /// A reload that fails after the kept screens left (its active path's `leave` fails) brings
    /// them back too.
    @Test func aLaterFailureBringsTheKeptScreensBack() async throws {
        let host = try await Self.hostOnTheCart()
        let failingCart = Self.shop("v1", books: Self.productAndReviews).replacingOccurrences(
            of: #"{ id = "cart" }"#, with: #"{ id = "cart", children = { { id = "checkout", leave = function() error("checkout stays") end } } }"#)
        let reloadedCart = try await host.reload(.source(failingCart, chunkName: "app.lua"))
        #expect(reloadedCart.left == [])
        #expect(await host.route(.path(["root", "cart", "checkout"])).isSuccess)
        do {
            _ = try await host.reload(.source(Self.shop("v2", books: #"{ id = "item" }"#), chunkName: "app.lua"))
            Issue.record("the reload succeeded")
        } catch {
            #expect(error.message.contains("checkout stays"), "\(error.message)")
        }
        let log = try await Self.log(of: host)
        #expect(log.hasSuffix(#"leave reviews by v1, leave product by v1, enter product by v1, enter reviews by v1""#), "\(log)")
    }

    /// A restore replaces the live kept stacks with the snapshot's: a live kept screen the
    /// snapshot does not hold leaves.
    @Test func aRestoreLeavesTheLiveKeptScreensTheSnapshotDoesNotHold() async throws {
        let saving = try await PortolanHost.quiet(loading: Self.shop("v1", books: Self.productAndReviews))
        #expect(await saving.route(.path(["root", "cart"])).isSuccess)
        let snapshot = try await saving.snapshotBytes()
        let host = try await Self.hostOnTheCart()
        let outcome = await host.restore(snapshot)
        #expect(outcome.name == "restored", "\(outcome)")
        #expect(try await Self.log(of: host) == #""enter product by v1, enter reviews by v1, leave reviews by v1, leave product by v1""#)
    }
}
