import Portolan
import Testing

/// Issue 4's table: pattern sets, a URL, and the expected match (pattern, typed parameters, query,
/// fragment), no match, or typed error. Every rule of "Patterns", "Matching" and "Bad input" has
/// rows here; the expected values come from the issue's text, not from the matcher's code.
@Suite struct URLMatchingTableTests {
    enum Expected: Sendable {
        /// The pattern (by its text) that must win, its parameters, and, when given, query and fragment.
        case match(String, [String: ContextValue] = [:], query: [String]? = nil, fragment: String?? = .none)
        case noMatch
        case error(URLRoutingError)
    }

    struct Row: Sendable, CustomTestStringConvertible {
        let rule: String
        let patterns: [String]
        let url: String
        let expected: Expected
        var caseInsensitive = false

        var testDescription: String { "\(rule): \(url)" }
    }

    static let books = ["/books", "/books/new", "/books/:id<int>", "/books/:slug", "/books/:id<int>/reviews"]
    static let precedence = [
        "/p/exact", "/p/:n<int>", "/p/:code{[A-Z]{3}}", "/p/:name", "/p/*", "/p/**rest",
    ]
    static let hosts = [
        "https://example.com/books/:id", "https://Shop.Example.com/items/:id", "myapp://books/:id<int>",
        "/books/:id", "/items/:id", "/help",
    ]
    static let uuid = "3F2504E0-4F89-11D3-9A0C-0305E82C3301"

    static let rows: [Row] = [
        // Slashes
        Row(rule: "slashes: plain", patterns: books, url: "/books", expected: .match("/books")),
        Row(rule: "slashes: trailing", patterns: books, url: "/books/", expected: .match("/books")),
        Row(rule: "slashes: repeated", patterns: books, url: "//books///new//", expected: .match("/books/new")),
        Row(rule: "slashes: none leading", patterns: books, url: "books/new", expected: .match("/books/new")),
        Row(rule: "slashes: root", patterns: ["/", "/a"], url: "/", expected: .match("/")),
        Row(rule: "slashes: root repeated", patterns: ["/", "/a"], url: "///", expected: .match("/")),
        Row(rule: "slashes: root with query", patterns: ["/"], url: "/?x=1", expected: .match("/", query: ["x=1"])),
        // Splitting then decoding
        Row(rule: "decode: %2F stays in one segment", patterns: ["/f/:name", "/f/:a/:b"], url: "/f/a%2Fb",
            expected: .match("/f/:name", ["name": "a/b"])),
        Row(rule: "decode: once only", patterns: ["/f/:name"], url: "/f/a%252Fb", expected: .match("/f/:name", ["name": "a%2Fb"])),
        Row(rule: "decode: space", patterns: ["/s/:q"], url: "/s/hello%20world", expected: .match("/s/:q", ["q": "hello world"])),
        Row(rule: "decode: UTF-8", patterns: ["/s/:q"], url: "/s/caf%C3%A9", expected: .match("/s/:q", ["q": "café"])),
        Row(rule: "decode: raw UTF-8", patterns: ["/s/:q"], url: "/s/café", expected: .match("/s/:q", ["q": "café"])),
        Row(rule: "decode: constant pattern decoded too", patterns: ["/a%20b"], url: "/a b", expected: .match("/a%20b")),
        Row(rule: "decode: encoded constant in URL", patterns: ["/new"], url: "/%6Eew", expected: .match("/new")),
        Row(rule: "dots: '.' is a segment", patterns: ["/a/:x/b"], url: "/a/./b", expected: .match("/a/:x/b", ["x": "."])),
        Row(rule: "dots: '..' is a segment", patterns: ["/a/:x/b"], url: "/a/../b", expected: .match("/a/:x/b", ["x": ".."])),
        Row(rule: "dots: '..' does not pop", patterns: ["/b"], url: "/a/../b", expected: .noMatch),
        // Query and fragment
        Row(rule: "query: items in order", patterns: books, url: "/books?b=2&a=1",
            expected: .match("/books", query: ["b=2", "a=1"], fragment: .some(nil))),
        Row(rule: "query: repeated keys kept", patterns: books, url: "/books?tag=a&tag=b&tag=a",
            expected: .match("/books", query: ["tag=a", "tag=b", "tag=a"])),
        Row(rule: "query: key without '='", patterns: books, url: "/books?debug&x=", expected: .match("/books", query: ["debug", "x="])),
        Row(rule: "query: empty items dropped", patterns: books, url: "/books?&&a=1&", expected: .match("/books", query: ["a=1"])),
        Row(rule: "query: decoded", patterns: books, url: "/books?q=a%26b%3Dc&n%20m=1",
            expected: .match("/books", query: ["q=a&b=c", "n m=1"])),
        Row(rule: "query: '+' kept", patterns: books, url: "/books?q=a+b", expected: .match("/books", query: ["q=a+b"])),
        Row(rule: "query: second '=' is in the value", patterns: books, url: "/books?e=a=b", expected: .match("/books", query: ["e=a=b"])),
        Row(rule: "query: empty", patterns: books, url: "/books?", expected: .match("/books", query: [], fragment: .some(nil))),
        Row(rule: "fragment: after first '#'", patterns: books, url: "/books/42#reviews",
            expected: .match("/books/:id<int>", ["id": 42], query: [], fragment: "reviews")),
        Row(rule: "fragment: keeps later '#' and '?'", patterns: books, url: "/books#a?b=1#c",
            expected: .match("/books", query: [], fragment: "a?b=1#c")),
        Row(rule: "fragment: with query", patterns: books, url: "/books?x=1#top", expected: .match("/books", query: ["x=1"], fragment: "top")),
        Row(rule: "fragment: empty", patterns: books, url: "/books#", expected: .match("/books", fragment: "")),
        Row(rule: "fragment: decoded", patterns: books, url: "/books#a%20b", expected: .match("/books", fragment: "a b")),
        // Case
        Row(rule: "case: constants sensitive by default", patterns: ["/Books"], url: "/books", expected: .noMatch),
        Row(rule: "case: exact case matches", patterns: ["/Books"], url: "/Books", expected: .match("/Books")),
        Row(rule: "case: insensitive option", patterns: ["/Books/new"], url: "/bOOKS/NEW", expected: .match("/Books/new"),
            caseInsensitive: true),
        Row(rule: "case: insensitive keeps parameter case", patterns: ["/books/:slug"], url: "/BOOKS/Dune",
            expected: .match("/books/:slug", ["slug": "Dune"]), caseInsensitive: true),
        Row(rule: "case: insensitive constant still beats parameter", patterns: ["/a/:x", "/a/NEW"], url: "/a/new",
            expected: .match("/a/NEW"), caseInsensitive: true),
        // Scheme and host
        Row(rule: "host: custom scheme host is first segment", patterns: ["/books/:id"], url: "myapp://books/42",
            expected: .match("/books/:id", ["id": "42"])),
        Row(rule: "host: custom scheme pattern naming the host", patterns: hosts, url: "myapp://books/42",
            expected: .match("myapp://books/:id<int>", ["id": 42])),
        Row(rule: "host: custom host pattern fails, host becomes a segment", patterns: hosts, url: "myapp://books/dune",
            expected: .match("/books/:id", ["id": "dune"])),
        Row(rule: "host: https uses the path only", patterns: ["/books/:id"], url: "https://other.org/books/7",
            expected: .match("/books/:id", ["id": "7"])),
        Row(rule: "host: https host is not a segment", patterns: ["/other.org/books/:id"], url: "https://other.org/books/7",
            expected: .noMatch),
        Row(rule: "host: named host wins over path-only", patterns: hosts, url: "https://example.com/books/9",
            expected: .match("https://example.com/books/:id", ["id": "9"])),
        Row(rule: "host: scheme and host case-insensitive", patterns: hosts, url: "HTTPS://EXAMPLE.com/books/9",
            expected: .match("https://example.com/books/:id", ["id": "9"])),
        Row(rule: "host: pattern host lowercased", patterns: hosts, url: "https://shop.example.com/items/5",
            expected: .match("https://Shop.Example.com/items/:id", ["id": "5"])),
        Row(rule: "host: other scheme same host", patterns: hosts, url: "http://example.com/books/9",
            expected: .match("/books/:id", ["id": "9"])),
        Row(rule: "host: another host falls back", patterns: hosts, url: "https://example.org/help", expected: .match("/help")),
        Row(rule: "host: port is part of the host", patterns: ["https://example.com:8443/x", "/x"], url: "https://example.com:8443/x",
            expected: .match("https://example.com:8443/x")),
        Row(rule: "host: custom scheme with empty host", patterns: ["/books/:id"], url: "myapp:///books/1",
            expected: .match("/books/:id", ["id": "1"])),
        Row(rule: "host: custom scheme host only", patterns: ["/help"], url: "myapp://help", expected: .match("/help")),
        Row(rule: "host: colon after a slash is not a scheme", patterns: ["/a/:b"], url: "/a/b://c", expected: .noMatch),
        // Precedence by specificity
        Row(rule: "precedence: constant first", patterns: precedence, url: "/p/exact", expected: .match("/p/exact")),
        Row(rule: "precedence: typed before plain", patterns: precedence, url: "/p/12", expected: .match("/p/:n<int>", ["n": 12])),
        Row(rule: "precedence: validated before plain", patterns: precedence, url: "/p/ABC", expected: .match("/p/:code{[A-Z]{3}}", ["code": "ABC"])),
        Row(rule: "precedence: validator must match whole segment", patterns: precedence, url: "/p/ABCD",
            expected: .match("/p/:name", ["name": "ABCD"])),
        Row(rule: "precedence: plain before *", patterns: precedence, url: "/p/x", expected: .match("/p/:name", ["name": "x"])),
        Row(rule: "precedence: ** takes the rest", patterns: precedence, url: "/p/x/y/z", expected: .match("/p/**rest", ["rest": "x/y/z"])),
        Row(rule: "precedence: ** matches zero segments", patterns: precedence, url: "/p", expected: .match("/p/**rest", ["rest": ""])),
        Row(rule: "precedence: * when no parameter", patterns: ["/q/*", "/q/**"], url: "/q/x", expected: .match("/q/*")),
        Row(rule: "precedence: declaration order does not matter", patterns: ["/r/:x", "/r/exact"], url: "/r/exact", expected: .match("/r/exact")),
        Row(rule: "precedence: exact end beats empty **", patterns: ["/s/**", "/s"], url: "/s", expected: .match("/s")),
        Row(rule: "precedence: unnamed ** captures nothing", patterns: ["/files/**"], url: "/files/a/b", expected: .match("/files/**")),
        // Backtracking
        Row(rule: "backtracking: RoutingKit's miss", patterns: ["a/b/c", "a/:x/d"], url: "a/b/d", expected: .match("a/:x/d", ["x": "b"])),
        Row(rule: "backtracking: constant path still wins", patterns: ["a/b/c", "a/:x/d"], url: "a/b/c", expected: .match("a/b/c")),
        Row(rule: "backtracking: typed to plain", patterns: ["/t/:n<int>/x", "/t/:s/y"], url: "/t/5/y", expected: .match("/t/:s/y", ["s": "5"])),
        Row(rule: "backtracking: to *", patterns: ["/u/:a/x", "/u/*/y"], url: "/u/1/y", expected: .match("/u/*/y")),
        Row(rule: "backtracking: to ** at an upper level", patterns: ["/v/a/b/c", "/v/**rest"], url: "/v/a/b/d",
            expected: .match("/v/**rest", ["rest": "a/b/d"])),
        Row(rule: "backtracking: deep alternatives", patterns: ["/w/a/:x/c", "/w/:y/b/d"], url: "/w/a/b/d",
            expected: .match("/w/:y/b/d", ["y": "a"])),
        Row(rule: "backtracking: nothing fits", patterns: ["a/b/c", "a/:x/d"], url: "a/b/e", expected: .noMatch),
        // Typed parameters
        Row(rule: "int: value typed", patterns: books, url: "/books/42", expected: .match("/books/:id<int>", ["id": .integer(42)])),
        Row(rule: "int: negative", patterns: books, url: "/books/-7", expected: .match("/books/:id<int>", ["id": -7])),
        Row(rule: "int: leading zeros", patterns: books, url: "/books/007", expected: .match("/books/:id<int>", ["id": 7])),
        Row(rule: "int: Int64.max", patterns: books, url: "/books/9223372036854775807",
            expected: .match("/books/:id<int>", ["id": .integer(.max)])),
        Row(rule: "int: Int64.min", patterns: books, url: "/books/-9223372036854775808",
            expected: .match("/books/:id<int>", ["id": .integer(.min)])),
        Row(rule: "int: overflow is not an int", patterns: books, url: "/books/9223372036854775808",
            expected: .match("/books/:slug", ["slug": "9223372036854775808"])),
        Row(rule: "int: '+' is not an int", patterns: books, url: "/books/+5", expected: .match("/books/:slug", ["slug": "+5"])),
        Row(rule: "int: string falls to plain", patterns: books, url: "/books/dune", expected: .match("/books/:slug", ["slug": "dune"])),
        Row(rule: "int: deeper pattern", patterns: books, url: "/books/42/reviews", expected: .match("/books/:id<int>/reviews", ["id": 42])),
        Row(rule: "int: no plain fallback below", patterns: books, url: "/books/dune/reviews", expected: .noMatch),
        Row(rule: "uuid: canonical lowercase", patterns: ["/u/:id<uuid>", "/u/:other"], url: "/u/\(uuid)",
            expected: .match("/u/:id<uuid>", ["id": .string(uuid.lowercased())])),
        Row(rule: "uuid: malformed falls through", patterns: ["/u/:id<uuid>", "/u/:other"], url: "/u/3F2504E0-4F89-11D3-9A0C",
            expected: .match("/u/:other", ["other": "3F2504E0-4F89-11D3-9A0C"])),
        Row(rule: "uuid and int are disjoint siblings", patterns: ["/m/:id<int>", "/m/:id<uuid>"], url: "/m/\(uuid)",
            expected: .match("/m/:id<uuid>", ["id": .string(uuid.lowercased())])),
        // Validated parameters
        Row(rule: "validator: slug", patterns: ["/a/:slug{[a-z0-9]+(-[a-z0-9]+)*}"], url: "/a/the-left-hand",
            expected: .match("/a/:slug{[a-z0-9]+(-[a-z0-9]+)*}", ["slug": "the-left-hand"])),
        Row(rule: "validator: slug refuses double dash", patterns: ["/a/:slug{[a-z0-9]+(-[a-z0-9]+)*}"], url: "/a/the--hand",
            expected: .noMatch),
        Row(rule: "validator: alternation", patterns: ["/l/:lang{en|fr|de}/home"], url: "/l/fr/home",
            expected: .match("/l/:lang{en|fr|de}/home", ["lang": "fr"])),
        Row(rule: "validator: escape", patterns: ["/d/:file{[^.]+\\.pdf}"], url: "/d/report.pdf",
            expected: .match("/d/:file{[^.]+\\.pdf}", ["file": "report.pdf"])),
        Row(rule: "validator: sees the decoded segment", patterns: ["/d/:path{[^/]+/[^/]+}"], url: "/d/a%2Fb",
            expected: .match("/d/:path{[^/]+/[^/]+}", ["path": "a/b"])),
        Row(rule: "validator: counted", patterns: ["/c/:code{[A-Z]{3}}"], url: "/c/AB", expected: .noMatch),
        // Bad input
        Row(rule: "bad: empty", patterns: books, url: "", expected: .error(.emptyURL)),
        Row(rule: "bad: lone ?", patterns: books, url: "?", expected: .error(.noPath("?"))),
        Row(rule: "bad: lone #", patterns: books, url: "#", expected: .error(.noPath("#"))),
        Row(rule: "bad: query only", patterns: books, url: "?a=1", expected: .error(.noPath("?a=1"))),
        Row(rule: "bad: lone %", patterns: books, url: "/books/%", expected: .error(.invalidPercentEscape(offset: 7))),
        Row(rule: "bad: short escape", patterns: books, url: "/books/%4", expected: .error(.invalidPercentEscape(offset: 7))),
        Row(rule: "bad: non-hex escape", patterns: books, url: "/a%zzb", expected: .error(.invalidPercentEscape(offset: 2))),
        Row(rule: "bad: escape cut by '/'", patterns: books, url: "/a%2/b", expected: .error(.invalidPercentEscape(offset: 2))),
        Row(rule: "bad: escape in query", patterns: books, url: "/books?q=%G1", expected: .error(.invalidPercentEscape(offset: 9))),
        Row(rule: "bad: invalid UTF-8", patterns: books, url: "/books/%FF", expected: .error(.invalidUTF8(offset: 7))),
        Row(rule: "bad: truncated UTF-8", patterns: books, url: "/x/%C3", expected: .error(.invalidUTF8(offset: 3))),
        Row(rule: "bad: raw control character", patterns: books, url: "/books\n", expected: .error(.controlCharacter(offset: 6))),
        Row(rule: "bad: control in fragment", patterns: books, url: "/books#a\tb", expected: .error(.controlCharacter(offset: 8))),
        Row(rule: "bad: encoded control character", patterns: books, url: "/books/%00", expected: .error(.controlCharacter(offset: 7))),
        Row(rule: "bad: DEL", patterns: books, url: "/books/%7F", expected: .error(.controlCharacter(offset: 7))),
        Row(rule: "bad: invalid scheme", patterns: books, url: "1app://books", expected: .error(.invalidScheme(offset: 0))),
        Row(rule: "bad: empty scheme", patterns: books, url: "://books", expected: .error(.invalidScheme(offset: 0))),
        Row(rule: "bad: too long", patterns: books, url: "/" + String(repeating: "a", count: 4_096),
            expected: .error(.urlTooLong(length: 4_097))),
        Row(rule: "bad: too many segments", patterns: books, url: String(repeating: "/a", count: 257),
            expected: .error(.tooManySegments(count: 257))),
        Row(rule: "caps: at the length cap", patterns: ["/:x"], url: "/" + String(repeating: "a", count: 4_095),
            expected: .match("/:x", ["x": .string(String(repeating: "a", count: 4_095))])),
        Row(rule: "caps: at the segment cap", patterns: ["/**rest"], url: String(repeating: "/a", count: 256),
            expected: .match("/**rest", ["rest": .string(Array(repeating: "a", count: 256).joined(separator: "/"))])),
        Row(rule: "miss: no pattern", patterns: books, url: "/authors", expected: .noMatch),
    ]

    @Test func tableHasAtLeastSixtyRows() {
        #expect(Self.rows.count >= 60)
    }

    @Test(arguments: rows)
    func row(_ row: Row) throws {
        var matcher = URLMatcherBuilder<String>(caseInsensitive: row.caseInsensitive)
        for pattern in row.patterns { try matcher.insert(pattern, value: pattern) }
        let result: Result<URLMatch<String>?, URLRoutingError>
        do throws(URLRoutingError) {
            result = .success(try matcher.build().match(row.url))
        } catch {
            result = .failure(error)
        }
        switch (row.expected, result) {
        case (.match(let pattern, let parameters, let query, let fragment), .success(let match?)):
            #expect(match.value == pattern)
            #expect(match.pattern.text == pattern)
            #expect(match.parameters == parameters)
            if let query { #expect(match.query.map(\.description) == query) }
            if case .some(let fragment) = fragment { #expect(match.fragment == fragment) }
        case (.noMatch, .success(nil)):
            break
        case (.error(let expected), .failure(let error)):
            #expect(error == expected)
            #expect(!error.description.isEmpty)
        default:
            Issue.record("expected \(row.expected), got \(result)")
        }
    }
}
