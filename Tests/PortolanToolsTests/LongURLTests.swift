import Foundation
import Portolan
import PortolanLua
@testable import PortolanTools
import Testing

/// A 100 KB URL is quoted in every error that echoes it as its start and its length
/// (`/aaaa…(100001 bytes)`, Excerpt), never whole: at the REPL's prompt, from `portolan.route`,
/// `portolan.plan` and `portolan.match`, through the Swift API, in a redirect loop's message, and
/// in an id path that does not parse.
@Suite struct LongURLTests {
    static let url = "/" + String(repeating: "a", count: 100_000)
    static let shown = "/" + String(repeating: "a", count: Excerpt.limit - 1) + "…(100001 bytes)"

    @Test func theREPLQuotesALongURLByItsStartAndLength() async throws {
        let repl = try await ReplSessionTests.Fixture()
        let lines = await repl.feed(Self.url)
        try #require(lines.count == 2, "\(lines.map { $0.prefix(300) })")
        let expected = "failed: invalid: malformed URL '\(Self.shown)': the URL is 100001 bytes long; the limit is 4096"
        let matches = lines[0] == expected
        #expect(matches, "\(lines[0].prefix(300))")
        for line in await repl.feed(":plan " + Self.url) {
            #expect(line.utf8.count < 1_000, "\(line.prefix(300))")
        }
        // An id path that does not parse quotes the line it was given.
        let idPath = await repl.feed("/root/" + String(repeating: "{", count: 100_000))
        #expect(idPath.allSatisfy { $0.utf8.count < 1_000 }, "\(idPath.map { $0.prefix(300) })")
        #expect(idPath.first?.contains("…(100005 bytes)") == true, "\(idPath.map { $0.prefix(300) })")
    }

    @Test func theModuleQuotesALongURLByItsStartAndLength() async throws {
        let repl = try await ReplSessionTests.Fixture()
        let long = "('/' .. ('a'):rep(100000))"
        for call in ["portolan.route", "portolan.plan", "portolan.match"] {
            let lines = await repl.feed("return select(2, \(call)\(long))")
            try #require(lines.count == 1, "\(call): \(lines.map { $0.prefix(300) })")
            let matches = lines[0] == "invalid: malformed URL '\(Self.shown)': the URL is 100001 bytes long; the limit is 4096"
            #expect(matches, "\(call): \(lines[0].prefix(300))")
        }
        // A redirect rule written in Lua that never settles names each URL of its chain, cut.
        await repl.feed(#"portolan.redirect_rule(function(url) if url:sub(1, 5) == "/loop" then return url .. ("l"):rep(1000) end end)"#)
        let loop = await repl.feed(#"return select(2, portolan.route("/loop"))"#)
        try #require(loop.count == 1)
        #expect(loop[0].hasPrefix("invalid: too many redirect rule rewrites: more than 8: '/loop' → '/loopl"), "\(loop[0].prefix(300))")
        #expect(loop[0].hasSuffix("…(9005 bytes)'"), "\(loop[0].suffix(100))")
    }

    @Test func theSwiftAPIQuotesALongURLByItsStartAndLength() async throws {
        let host = try PortolanHost()
        try await host.loadApp(.source(#"portolan.app { id = "root", children = { { id = "a", route = "/a" } } }"#, chunkName: "=app"))
        guard case .failure(let failure) = await host.resolve(url: Self.url) else {
            Issue.record("a 100 KB URL resolved")
            return
        }
        let matches = failure.message == "malformed URL '\(Self.shown)': the URL is 100001 bytes long; the limit is 4096"
        #expect(matches, "\(failure.message.prefix(300))")
        // Under the URL limit but long: no route matches it, and the message is bounded too.
        let near = "/" + String(repeating: "b", count: 4_000)
        guard case .failure(let unmatched) = await host.resolve(url: near) else {
            Issue.record("/bbb… resolved")
            return
        }
        let bounded = unmatched.message == "no route matches '/" + String(repeating: "b", count: Excerpt.limit - 1) + "…(4001 bytes)'"
        #expect(bounded, "\(unmatched.message.prefix(300))")
    }
}
