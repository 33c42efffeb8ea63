/// A URL split into the parts routing needs: scheme, host, percent-decoded path segments, query
/// items and fragment.
///
/// Reading rules (issue 4):
/// - The fragment is everything after the first `#`; the query is between the first `?` before it
///   and the `#`. Both are percent-decoded.
/// - The path is split on `/` first, then each segment is percent-decoded once, so `a%2Fb` is the
///   single segment `a/b` and `%252F` is `%2F`. Empty segments (leading, trailing, repeated
///   slashes) are dropped. `.` and `..` are ordinary segments.
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
        while let byte = rest.first, isASCIILetter(byte) || isASCIIDigit(byte)
            || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") {
            rest = rest.dropFirst()
        }
        return rest.starts(with: "://".utf8)
    }

    private static func isASCIILetter(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
    }

    private static func isASCIIDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    /// Reads `text` as a URL, or throws why it cannot be routed.
    public init(parsing text: String) throws(URLRoutingError) {
        #if DEBUG
        URLParseCounter.count(text)
        #endif
        var contiguous = text
        let result: Result<ParsedURL, URLRoutingError> = contiguous.withUTF8 { bytes in
            do throws(URLRoutingError) {
                return .success(try URLReader(bytes: bytes).read(original: text))
            } catch {
                return .failure(error)
            }
        }
        self = try result.get()
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

    init(scheme: String?, host: String?, routingSegments: [String], pathStart: Int, query: [QueryItem], fragment: String?) {
        self.scheme = scheme
        self.host = host
        self.routingSegments = routingSegments
        self.pathStart = pathStart
        self.query = query
        self.fragment = fragment
    }

    /// Whether the host is a routing segment for this scheme (anything but `http` and `https`).
    static func hostIsSegment(scheme: String) -> Bool {
        scheme != "http" && scheme != "https"
    }
}

/// The byte-level reader behind ``ParsedURL/init(parsing:)``: one pass to find the parts, then each
/// component decoded on its own.
private struct URLReader {
    let bytes: UnsafeBufferPointer<UInt8>

    func read(original: String) throws(URLRoutingError) -> ParsedURL {
        let count = bytes.count
        guard count > 0 else { throw .emptyURL }
        guard count <= URLLimits.maximumLength else { throw .urlTooLong(length: count) }
        let (queryStart, fragmentStart) = try delimiters()
        let pathEnd = queryStart ?? fragmentStart ?? count
        guard pathEnd > 0 else { throw .noPath(original) }

        let authority = try readAuthority(before: pathEnd)
        var segments: [String] = []
        segments.reserveCapacity(8)
        var pathStart = 0
        if let authority, !authority.rawHost.isEmpty, ParsedURL.hostIsSegment(scheme: authority.scheme) {
            segments.append(authority.rawHost)
            pathStart = 1
        }
        try appendSegments(of: (authority?.pathBegin ?? 0)..<pathEnd, to: &segments, pathStart: pathStart)

        var query: [ParsedURL.QueryItem] = []
        if let queryStart {
            query = try readQuery(queryStart + 1..<(fragmentStart ?? count))
        }
        var fragment: String?
        if let fragmentStart {
            fragment = try decode(fragmentStart + 1..<count)
        }
        return ParsedURL(
            scheme: authority?.scheme, host: authority?.host, routingSegments: segments, pathStart: pathStart,
            query: query, fragment: fragment)
    }

    /// The offsets of the query's `?` (the first one before any `#`) and of the fragment's `#`, if
    /// any. Throws on a control character anywhere.
    private func delimiters() throws(URLRoutingError) -> (query: Int?, fragment: Int?) {
        let count = bytes.count
        var queryStart: Int?
        var fragmentStart: Int?
        for index in 0..<count {
            let byte = bytes[index]
            if byte < 0x20 || byte == 0x7F { throw .controlCharacter(offset: index) }
            if byte == UInt8(ascii: "#") {
                fragmentStart = index
                break
            }
            if byte == UInt8(ascii: "?") && queryStart == nil { queryStart = index }
        }
        if let fragmentStart {
            // The fragment was not scanned above.
            for index in fragmentStart..<count where bytes[index] < 0x20 || bytes[index] == 0x7F {
                throw .controlCharacter(offset: index)
            }
        }
        return (queryStart, fragmentStart)
    }

    /// `scheme://authority` at the start of the URL, if it starts with one: the scheme lowercased,
    /// the host decoded (lowercased, and as written), and where the path begins.
    private func readAuthority(
        before pathEnd: Int
    ) throws(URLRoutingError) -> (scheme: String, host: String, rawHost: String, pathBegin: Int)? {
        guard let colon = try schemeEnd(before: pathEnd) else { return nil }
        let schemeText = String(decoding: UnsafeBufferPointer(rebasing: bytes[0..<colon]), as: UTF8.self)
        let authorityStart = colon + 3
        var authorityEnd = authorityStart
        while authorityEnd < pathEnd && bytes[authorityEnd] != UInt8(ascii: "/") { authorityEnd += 1 }
        let decodedHost = try decode(authorityStart..<authorityEnd)
        return (schemeText.lowercased(), decodedHost.lowercased(), decodedHost, authorityEnd)
    }

    /// Appends the path's non-empty segments in `range`, each decoded; the first `pathStart` of
    /// `segments` are not the path's and do not count toward the limit.
    private func appendSegments(
        of range: Range<Int>, to segments: inout [String], pathStart: Int
    ) throws(URLRoutingError) {
        var segmentStart = range.lowerBound
        for index in range.lowerBound...range.upperBound where index == range.upperBound || bytes[index] == UInt8(ascii: "/") {
            if index > segmentStart {
                guard segments.count - pathStart < URLLimits.maximumSegments else {
                    throw .tooManySegments(count: countSegments(range))
                }
                segments.append(try decode(segmentStart..<index))
            }
            segmentStart = index + 1
        }
    }

    /// The offset of the `:` of `scheme://`, when the URL starts with one; throws when `://` comes
    /// before any `/` but what precedes it is not a scheme.
    private func schemeEnd(before end: Int) throws(URLRoutingError) -> Int? {
        var colon = 0
        while colon < end && bytes[colon] != UInt8(ascii: ":") {
            if bytes[colon] == UInt8(ascii: "/") { return nil }
            colon += 1
        }
        guard colon + 2 < end else { return nil }
        guard bytes[colon + 1] == UInt8(ascii: "/") && bytes[colon + 2] == UInt8(ascii: "/") else { return nil }
        guard colon > 0, isLetter(bytes[0]) else { throw .invalidScheme(offset: 0) }
        for index in 1..<colon where !isSchemeByte(bytes[index]) {
            throw .invalidScheme(offset: index)
        }
        return colon
    }

    private func isLetter(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
    }

    private func isSchemeByte(_ byte: UInt8) -> Bool {
        isLetter(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }

    private func countSegments(_ range: Range<Int>) -> Int {
        var segments = 0
        var inSegment = false
        for index in range {
            let isSlash = bytes[index] == UInt8(ascii: "/")
            if !isSlash && !inSegment { segments += 1 }
            inSegment = !isSlash
        }
        return segments
    }

    /// Items split on `&`, then on the first `=`; empty items dropped.
    private func readQuery(_ range: Range<Int>) throws(URLRoutingError) -> [ParsedURL.QueryItem] {
        var items: [ParsedURL.QueryItem] = []
        var itemStart = range.lowerBound
        for index in range.lowerBound...range.upperBound
        where index == range.upperBound || bytes[index] == UInt8(ascii: "&") {
            if index > itemStart {
                var equals = itemStart
                while equals < index && bytes[equals] != UInt8(ascii: "=") { equals += 1 }
                let name = try decode(itemStart..<equals)
                let value = equals < index ? try decode(equals + 1..<index) : nil
                items.append(ParsedURL.QueryItem(name: name, value: value))
            }
            itemStart = index + 1
        }
        return items
    }

    private func decode(_ range: Range<Int>) throws(URLRoutingError) -> String {
        try PercentDecoding.decode(bytes, range)
    }
}
