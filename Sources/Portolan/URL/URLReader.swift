/// The byte-level reader behind ``ParsedURL/init(parsing:)`` and `URLMatcher.match(_:)` of a string,
/// in two stages: ``layout()``, one pass over the bytes that finds the parts, refuses what is
/// malformed anywhere (control characters, length) and hashes a plain path for
/// ``ConstantPaths``; then ``read(_:original:)``, each component decoded on its own. A matcher
/// whose constant paths hold the URL's path stops after the first stage and reads the query and
/// fragment alone (``queryAndFragment(_:)``): what it skips cannot fail for such a path.
struct URLReader {
    let bytes: UnsafeBufferPointer<UInt8>

    /// Where the parts of a URL lie, from ``layout()``.
    struct Layout {
        /// The offset of the query's `?` (the first one before any `#`), if any.
        var queryStart: Int?
        /// The offset of the fragment's `#`, if any.
        var fragmentStart: Int?
        /// Where the path (with its authority, if any) ends: at the query, the fragment or the end.
        var pathEnd: Int
        /// ``ConstantPaths/hash(_:)`` of the path's segments joined by `/`, when the URL is a bare
        /// path (it starts with `/`) of ASCII bytes without `%`: then its segments are its bytes
        /// between slashes, as they are. `nil` for any other URL.
        var plainPathHash: UInt64?
    }

    /// Runs `body` on a reader of `text`'s UTF-8 bytes, in place.
    static func reading<Output>(
        _ text: String, _ body: (URLReader) throws(URLRoutingError) -> Output
    ) throws(URLRoutingError) -> Output {
        #if DEBUG
        URLParseCounter.count(text)
        #endif
        var contiguous = text
        let result: Result<Output, URLRoutingError> = contiguous.withUTF8 { bytes in
            do throws(URLRoutingError) {
                return .success(try body(URLReader(bytes: bytes)))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// The first stage: throws on an empty or too long URL and on a control character anywhere.
    func layout() throws(URLRoutingError) -> Layout {
        let count = bytes.count
        guard count > 0 else { throw .emptyURL }
        guard count <= URLLimits.maximumLength else { throw .urlTooLong(length: count) }
        // The path, hashed as its segments joined by one `/` (empty segments dropped).
        var isPlain = bytes[0] == UInt8(ascii: "/")
        var hash = ConstantPaths.emptyHash
        var afterSegment = false
        var separated = false
        var index = 0
        while index < count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") { break }
            if byte < 0x20 || byte == 0x7F { throw .controlCharacter(offset: index) }
            if byte == UInt8(ascii: "/") {
                separated = afterSegment
            } else {
                if byte >= 0x80 || byte == UInt8(ascii: "%") { isPlain = false }
                if separated {
                    hash = ConstantPaths.mix(hash, UInt8(ascii: "/"))
                    separated = false
                }
                hash = ConstantPaths.mix(hash, byte)
                afterSegment = true
            }
            index += 1
        }
        var layout = Layout(pathEnd: index, plainPathHash: isPlain ? hash : nil)
        // The rest: the query up to the first `#`, then the fragment.
        while index < count {
            let byte = bytes[index]
            if byte < 0x20 || byte == 0x7F { throw .controlCharacter(offset: index) }
            if byte == UInt8(ascii: "#") && layout.fragmentStart == nil { layout.fragmentStart = index }
            if byte == UInt8(ascii: "?") && layout.queryStart == nil && layout.fragmentStart == nil {
                layout.queryStart = index
            }
            index += 1
        }
        return layout
    }

    /// The second stage: the URL whose parts `layout` found.
    func read(_ layout: Layout, original: String) throws(URLRoutingError) -> ParsedURL {
        let pathEnd = layout.pathEnd
        guard pathEnd > 0 else { throw .noPath(original) }

        let authority = try readAuthority(before: pathEnd)
        var segments: [String] = []
        segments.reserveCapacity(8)
        var pathStart = 0
        if let authority, !authority.rawHost.isEmpty, ParsedURL.hostIsSegment(scheme: authority.scheme) {
            segments.append(authority.rawHost)
            pathStart = 1
        }
        let pathBegin = authority?.pathBegin ?? 0
        try appendSegments(of: pathBegin..<pathEnd, to: &segments, pathStart: pathStart)
        let (query, fragment) = try queryAndFragment(layout)
        let hasTrailingSlash = !segments.isEmpty && pathEnd > pathBegin && bytes[pathEnd - 1] == UInt8(ascii: "/")
        return ParsedURL(
            scheme: authority?.scheme, host: authority?.host, routingSegments: segments, pathStart: pathStart,
            hasTrailingSlash: hasTrailingSlash, query: query, fragment: fragment)
    }

    /// The query's items and the fragment, decoded, in that order.
    func queryAndFragment(_ layout: Layout) throws(URLRoutingError) -> (query: [ParsedURL.QueryItem], fragment: String?) {
        let count = bytes.count
        var query: [ParsedURL.QueryItem] = []
        if let queryStart = layout.queryStart {
            query = try readQuery(queryStart + 1..<(layout.fragmentStart ?? count))
        }
        var fragment: String?
        if let fragmentStart = layout.fragmentStart {
            fragment = try decode(fragmentStart + 1..<count)
        }
        return (query, fragment)
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
