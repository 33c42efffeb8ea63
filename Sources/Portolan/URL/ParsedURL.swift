/// A URL split into the parts routing needs: scheme, host, percent-decoded path segments, query
/// items and fragment.
///
/// Reading rules (issue 4):
/// - The fragment is everything after the first `#`; the query is between the first `?` before it
///   and the `#`. Both are percent-decoded.
/// - The path is split on `/` first, then each segment is percent-decoded once, so `a%2Fb` is the
///   single segment `a/b` and `%252F` is `%2F`. Empty segments (leading, trailing, repeated
///   slashes) are dropped; whether the path ends with a slash is kept beside them. `.` and `..`
///   are ordinary segments.
/// - Query items are split on `&` (empty items dropped), then on the first `=`; repeated names are
///   kept in order and a name without `=` has a `nil` value. `+` is kept as is (not a space).
/// - `scheme://authority` is recognised when `://` comes before any other `/`. Scheme and host are
///   lowercased. For a scheme other than `http` and `https` the host is also the first routing
///   segment (`myapp://books/42` routes as `books/42` for patterns that do not name a host).
/// - Refused, with a typed ``URLRoutingError``: the empty string, a URL with no path (`?`, `#x`),
///   invalid escapes, control characters (raw or decoded, anywhere), invalid UTF-8 once decoded,
///   more than ``URLLimits/maximumLength`` bytes or ``URLLimits/maximumSegments`` segments.
public struct ParsedURL: Sendable, Equatable {
    /// One `name=value` item of the query; `value` is `nil` when the item has no `=`.
    public struct QueryItem: Sendable, Equatable, CustomStringConvertible {
        public var name: String
        public var value: String?

        public init(name: String, value: String?) {
            self.name = name
            self.value = value
        }

        public var description: String { value.map { "\(name)=\($0)" } ?? name }
    }

    /// The scheme, lowercased (`https`, `myapp`), or `nil` when the URL is a bare path.
    public private(set) var scheme: String?
    /// The authority after `://`, percent-decoded and lowercased (a port stays part of it).
    public private(set) var host: String?
    /// The segments a pattern without a host is matched against: the path's segments, preceded by
    /// the host as written when the scheme is neither `http` nor `https`.
    public private(set) var routingSegments: [String]
    /// Where the path starts in ``routingSegments``: 1 when the host was prepended, else 0.
    let pathStart: Int
    /// Whether the path ends with a `/` after a segment (`/a/`; not the root `/`): routes whose
    /// trailing slash is significant read it (``RouteOptions``), the others ignore it.
    public private(set) var hasTrailingSlash: Bool
    /// The query items, in order, repeats kept.
    public private(set) var query: [QueryItem]
    /// Everything after the first `#`, percent-decoded; `nil` when there is no `#`.
    public private(set) var fragment: String?

    /// The path's segments alone, percent-decoded.
    public var pathSegments: ArraySlice<String> { routingSegments[pathStart...] }

    /// Whether `text` is meant as a URL rather than a node id: it starts with `/` (a path) or with
    /// a scheme and `://` (`myapp://movie/42`), the scheme being a letter followed by letters,
    /// digits, `+`, `-` or `.` (RFC 3986). The one rule the module, the REPL and the linter share.
    public static func isURL(_ text: some StringProtocol) -> Bool {
        let bytes = text.utf8
        guard let first = bytes.first else { return false }
        if first == UInt8(ascii: "/") { return true }
        guard isASCIILetter(first) else { return false }
        var rest = bytes.dropFirst()
        while let byte = rest.first, isSchemeByte(byte) {
            rest = rest.dropFirst()
        }
        return rest.starts(with: "://".utf8)
    }

    /// Whether `text` is a scheme, without `://`: a letter followed by letters, digits, `+`, `-`
    /// or `.` (RFC 3986), as `isURL` reads one.
    public static func isScheme(_ text: some StringProtocol) -> Bool {
        guard let first = text.utf8.first, isASCIILetter(first) else { return false }
        return text.utf8.dropFirst().allSatisfy(isSchemeByte)
    }

    private static func isSchemeByte(_ byte: UInt8) -> Bool {
        isASCIILetter(byte) || isASCIIDigit(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }

    private static func isASCIILetter(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
    }

    private static func isASCIIDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    /// Reads `text` as a URL, or throws why it cannot be routed.
    public init(parsing text: String) throws(URLRoutingError) {
        self = try URLReader.reading(text) { reader throws(URLRoutingError) in
            try reader.read(reader.layout(), original: text)
        }
    }

    /// What reading a URL to route gave: the URL, or the failure of the route (malformed).
    typealias Reading = Result<ParsedURL, RouteFailure>

    /// Reads `text` as a URL to route: malformed, it fails the route as `invalid`, quoting it.
    static func reading(_ text: String) -> Reading {
        do {
            return .success(try ParsedURL(parsing: text))
        } catch {
            return .failure(RouteFailure(.invalid, "malformed URL '\(Excerpt.of(text))': \(error)"))
        }
    }

    init(
        scheme: String?, host: String?, routingSegments: [String], pathStart: Int, hasTrailingSlash: Bool = false,
        query: [QueryItem], fragment: String?
    ) {
        self.scheme = scheme
        self.host = host
        self.routingSegments = routingSegments
        self.pathStart = pathStart
        self.hasTrailingSlash = hasTrailingSlash
        self.query = query
        self.fragment = fragment
    }

    /// Whether the host is a routing segment for this scheme (anything but `http` and `https`).
    static func hostIsSegment(scheme: String) -> Bool {
        scheme != "http" && scheme != "https"
    }
}
