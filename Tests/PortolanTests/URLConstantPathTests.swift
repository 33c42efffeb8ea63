import Portolan
import TestSupport
import Testing

/// The matcher's index of constant patterns (`ConstantPaths`): `match(String)` finds a plain path
/// of constants by a hash of the whole path, before the URL is read whole; `match(ParsedURL)`
/// always walks the trie. Both must give the same answer, or the same error, for every URL.
@Suite struct URLConstantPathTests {
    /// Constant patterns the index must hold, and ones it must leave to the trie: a constant
    /// written with an escape (`%2F` is a `/` inside one segment, `%3F` a `?`), non-ASCII
    /// constants (the Kelvin sign equals `K` as a Swift string), the root, and parameters beside
    /// constants of the same prefix.
    static let patterns = [
        "/", "/a", "/a/b", "/A/c", "/a/:x", "/a/b/c", "/a%2Fb", "/%3F", "/a b", "/\u{212A}", "/é", "/caf%C3%A9",
        "/section1/items", "/section1/items/:id", "/section1/about/team", "/x/*", "/y/**rest", "https://h.com/a/b",
        "myapp://a/b",
    ]

    static let tokens = [
        "/", "/", "//", "a", "b", "c", "A", "B", "a/b", "%2F", "%3F", "%61", "?", "#", "&", "=", "x=1", "%zz", "%",
        "\u{1}", "\u{7F}", " ", "é", "e\u{301}", "K", "k", "\u{212A}", "section1", "items", "about", "team", "42",
        "https://h.com", "myapp://", "HTTPS://H.COM",
    ]

    static func matcher(caseInsensitive: Bool) throws -> URLMatcher<Int> {
        var builder = URLMatcherBuilder<Int>(caseInsensitive: caseInsensitive)
        for (index, pattern) in patterns.enumerated() {
            do {
                try builder.insert(pattern, value: index)
            } catch .ambiguous {
                continue  // `/K`-like clashes in one mode or the other
            }
        }
        return builder.build()
    }

    static func outcome(_ read: () throws(URLRoutingError) -> URLMatch<Int>?) -> Result<URLMatch<Int>?, URLRoutingError> {
        do throws(URLRoutingError) {
            return .success(try read())
        } catch {
            return .failure(error)
        }
    }

    /// Random URLs built mostly of constants, slashes, case variants, escapes, queries and
    /// fragments (valid or not): the string entry and the parsed entry agree on each one.
    @Test(arguments: [false, true])
    func stringAndParsedEntriesAgree(caseInsensitive: Bool) throws {
        let matcher = try Self.matcher(caseInsensitive: caseInsensitive)
        var random = SeededRandom(seed: caseInsensitive ? 0xC0_57A7 : 0xC0_57A6)
        var hits = 0
        for index in 0..<40_000 {
            let url = index % 4 == 0
                ? HostileURL.make(&random)
                : "/" + (0..<random.int(in: 0...6)).map { _ in Self.tokens[random.int(in: 0...Self.tokens.count - 1)] }.joined()
            let whole = Self.outcome { () throws(URLRoutingError) in matcher.match(try ParsedURL(parsing: url)) }
            let direct = Self.outcome { () throws(URLRoutingError) in try matcher.match(url) }
            #expect(direct == whole, "input \(index): \(url.debugDescription)")
            if case .success(let match?) = direct, match.parameters.isEmpty { hits += 1 }
        }
        #expect(hits > 2_000, "too few constant hits to test the index: \(hits)")
    }

    @Test func aConstantWithAnEscapedSlashIsOneSegment() throws {
        let matcher = try Self.matcher(caseInsensitive: false)
        #expect(try matcher.match("/a%2Fb")?.pattern.text == "/a%2Fb")
        #expect(try matcher.match("/a/b")?.pattern.text == "/a/b")
        #expect(try matcher.match("/%3F")?.pattern.text == "/%3F")
        #expect(try matcher.match("/?")?.pattern.text == "/")
    }

    @Test func caseFollowsTheMatchersMode() throws {
        let sensitive = try Self.matcher(caseInsensitive: false)
        #expect(try sensitive.match("/A/b") == nil)
        #expect(try sensitive.match("/A/c")?.pattern.text == "/A/c")
        #expect(try sensitive.match("/a/c")?.pattern.text == "/a/:x")
        let insensitive = try Self.matcher(caseInsensitive: true)
        #expect(try insensitive.match("/A/B")?.pattern.text == "/a/b")
        #expect(try insensitive.match("/SECTION1/Items")?.pattern.text == "/section1/items")
    }

    /// Slashes repeated, leading or trailing, are dropped as the reader drops them; constants win
    /// over parameters at the same place; a scheme and host go to the trie.
    @Test func plainPathsMatchAsTheWalkDoes() throws {
        let matcher = try Self.matcher(caseInsensitive: false)
        #expect(try matcher.match("//a//b/")?.pattern.text == "/a/b")
        #expect(try matcher.match("///")?.pattern.text == "/")
        #expect(try matcher.match("/section1/items/7")?.parameters == ["id": .string("7")])
        #expect(try matcher.match("/a/b/c")?.pattern.text == "/a/b/c")
        #expect(try matcher.match("https://h.com/a/b")?.pattern.text == "https://h.com/a/b")
        #expect(try matcher.match("myapp://a/b")?.pattern.text == "myapp://a/b")
        #expect(try matcher.match("/x/q")?.pattern.text == "/x/*")
    }

    /// A constant found by the index still reads its query and fragment, and fails as the whole
    /// reading fails: a bad escape or a control character after the path is an error, not a match.
    @Test func aConstantHitReadsTheRestOrFailsAsAWholeReading() throws {
        let matcher = try Self.matcher(caseInsensitive: false)
        let match = try matcher.match("/a/b?x=1&y&x=%41#top%20")
        #expect(match?.pattern.text == "/a/b")
        #expect(match?.query == [.init(name: "x", value: "1"), .init(name: "y", value: nil), .init(name: "x", value: "A")])
        #expect(match?.fragment == "top ")
        #expect(throws: URLRoutingError.invalidPercentEscape(offset: 7)) { try matcher.match("/a/b?x=%zz") }
        #expect(throws: URLRoutingError.controlCharacter(offset: 6)) { try matcher.match("/a/b#x\u{1}") }
        #expect(throws: URLRoutingError.invalidUTF8(offset: 5)) { try matcher.match("/a/b#%FF") }
        let long = "/a/b?" + String(repeating: "x", count: URLLimits.maximumLength)
        #expect(throws: URLRoutingError.urlTooLong(length: long.utf8.count)) { try matcher.match(long) }
    }
}
