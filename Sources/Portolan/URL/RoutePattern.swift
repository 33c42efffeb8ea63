/// A parsed route pattern: an optional `scheme://host` and a list of segment patterns.
///
/// Syntax, segment by segment (split on `/`; leading, trailing and repeated slashes ignored):
/// - `books` — a constant, percent-decoded like a URL segment (`%3A` writes a literal leading `:`,
///   `%2A` a literal `*`);
/// - `:id` — a parameter; `:id<int>`, `:id<uuid>` — typed; `:slug{[a-z0-9-]+}` — validated by a
///   ``ValidatorSyntax`` pattern that must match the whole segment;
/// - `*` — exactly one segment; `**` or `**rest` — the rest of the path (0+ segments), last only.
///
/// Names are a letter or `_`, then letters, digits or `_`, unique within the pattern.
/// `https://example.com/books/:id` matches only URLs with that scheme and host (both compared
/// case-insensitively); a pattern without them matches any URL's routing segments.
/// The root is `/`. Patterns are parsed once, when registered; matching never re-reads them.
public struct RoutePattern: Sendable, Hashable, CustomStringConvertible {
    /// The pattern as written.
    public let text: String
    /// The scheme it requires, lowercased, or `nil`.
    public let scheme: String?
    /// The host it requires, lowercased, or `nil`.
    public let host: String?
    /// Its segments, in order.
    public let segments: [PathSegmentPattern]
    /// The compiled validator of each `.validated` segment (`nil` elsewhere), parallel to `segments`.
    let validators: [SegmentValidator?]

    /// Parses `text`, or throws a ``URLRoutingError`` naming what is wrong and where.
    public init(_ text: String) throws(URLRoutingError) {
        let bytes = Array(text.utf8)
        let parsed = try bytes.withUnsafeBufferPointer { buffer throws(URLRoutingError) in
            try PatternReader(text: text, bytes: buffer).read()
        }
        self.text = text
        self.scheme = parsed.scheme
        self.host = parsed.host
        self.segments = parsed.segments
        self.validators = parsed.validators
    }

    /// The names of its parameters, in order (including a named `**`).
    public var parameterNames: [String] { segments.compactMap(\.parameterName) }

    public var description: String { text }

    public static func == (lhs: RoutePattern, rhs: RoutePattern) -> Bool {
        lhs.scheme == rhs.scheme && lhs.host == rhs.host && lhs.segments == rhs.segments
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(scheme)
        hasher.combine(host)
        hasher.combine(segments)
    }
}

/// The byte-level reader behind ``RoutePattern/init(_:)``.
private struct PatternReader {
    let text: String
    let bytes: UnsafeBufferPointer<UInt8>

    struct Parsed {
        var scheme: String?
        var host: String?
        var segments: [PathSegmentPattern] = []
        var validators: [SegmentValidator?] = []
    }

    func read() throws(URLRoutingError) -> Parsed {
        guard !bytes.isEmpty else { throw .emptyPattern }
        guard bytes.count <= URLLimits.maximumLength else { throw .urlTooLong(length: bytes.count) }
        for (offset, byte) in bytes.enumerated() where byte < 0x20 || byte == 0x7F {
            throw .controlCharacter(offset: offset)
        }
        var parsed = Parsed()
        var pathStart = 0
        if let colon = schemeColon() {
            parsed.scheme = String(decoding: UnsafeBufferPointer(rebasing: bytes[0..<colon]), as: UTF8.self).lowercased()
            var hostEnd = colon + 3
            while hostEnd < bytes.count && bytes[hostEnd] != UInt8(ascii: "/") { hostEnd += 1 }
            guard hostEnd > colon + 3 else { throw .missingHost(pattern: text) }
            parsed.host = try PercentDecoding.decode(bytes, colon + 3..<hostEnd).lowercased()
            pathStart = hostEnd
        }
        let tokens = try tokenize(from: pathStart)
        guard tokens.count <= URLLimits.maximumSegments else { throw .tooManySegments(count: tokens.count) }
        var names = Set<String>()
        for (index, token) in tokens.enumerated() {
            let (segment, validator) = try readSegment(token)
            if case .rest = segment, index != tokens.count - 1 {
                throw .restNotLast(pattern: text, offset: token.lowerBound)
            }
            if let name = segment.parameterName, !names.insert(name).inserted {
                throw .duplicateParameter(pattern: text, name: name)
            }
            parsed.segments.append(segment)
            parsed.validators.append(validator)
        }
        return parsed
    }

    /// The offset of the `:` of a leading `scheme://`, if the pattern has one.
    private func schemeColon() -> Int? {
        guard let first = bytes.first, isLetter(first) else { return nil }
        var index = 1
        while index < bytes.count, isLetter(bytes[index]) || isDigit(bytes[index])
            || bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: ".")
        {
            index += 1
        }
        guard index + 2 < bytes.count, bytes[index] == UInt8(ascii: ":"), bytes[index + 1] == UInt8(ascii: "/"),
            bytes[index + 2] == UInt8(ascii: "/")
        else { return nil }
        return index
    }

    /// Byte ranges of the non-empty segments. A `/` inside a parameter's `{validator}` does not
    /// split (validators may say `[^/]`).
    private func tokenize(from start: Int) throws(URLRoutingError) -> [Range<Int>] {
        var tokens: [Range<Int>] = []
        var segmentStart = start
        var index = start
        while index <= bytes.count {
            if index == bytes.count || bytes[index] == UInt8(ascii: "/") {
                if index > segmentStart { tokens.append(segmentStart..<index) }
                segmentStart = index + 1
                index += 1
                continue
            }
            if bytes[index] == UInt8(ascii: "{") && bytes[segmentStart] == UInt8(ascii: ":") {
                guard let close = closingBrace(from: index) else {
                    throw .unterminatedParameter(pattern: text, offset: index)
                }
                index = close + 1
                continue
            }
            index += 1
        }
        return tokens
    }

    /// The offset of the `}` that closes the `{` at `open`, skipping escapes, classes and nested braces.
    private func closingBrace(from open: Int) -> Int? {
        var depth = 0
        var inClass = false
        var index = open
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\\"):
                index += 1
            case UInt8(ascii: "[") where !inClass:
                inClass = true
                // `]` right after `[` or `[^` is literal.
                if index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "^") { index += 1 }
                if index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "]") { index += 1 }
            case UInt8(ascii: "]") where inClass:
                inClass = false
            case UInt8(ascii: "{") where !inClass:
                depth += 1
            case UInt8(ascii: "}") where !inClass:
                depth -= 1
                if depth == 0 { return index }
            default:
                break
            }
            index += 1
        }
        return nil
    }

    private func readSegment(_ range: Range<Int>) throws(URLRoutingError) -> (PathSegmentPattern, SegmentValidator?) {
        let first = bytes[range.lowerBound]
        if first == UInt8(ascii: "*") {
            if range.count == 1 { return (.anySegment, nil) }
            if bytes[range.lowerBound + 1] == UInt8(ascii: "*") {
                if range.count == 2 { return (.rest(name: nil), nil) }
                let nameEnd = nameEnd(from: range.lowerBound + 2, in: range)
                guard nameEnd == range.upperBound else {
                    throw .invalidParameterName(pattern: text, offset: range.lowerBound + 2)
                }
                return (.rest(name: string(range.lowerBound + 2..<nameEnd)), nil)
            }
        }
        guard first == UInt8(ascii: ":") else {
            return (.constant(try PercentDecoding.decode(bytes, range)), nil)
        }
        let nameStart = range.lowerBound + 1
        let nameEnd = nameEnd(from: nameStart, in: range)
        guard nameEnd > nameStart else { throw .invalidParameterName(pattern: text, offset: nameStart) }
        let name = string(nameStart..<nameEnd)
        if nameEnd == range.upperBound { return (.parameter(name: name), nil) }
        switch bytes[nameEnd] {
        case UInt8(ascii: "<"):
            guard let close = (nameEnd..<range.upperBound).first(where: { bytes[$0] == UInt8(ascii: ">") }) else {
                throw .unterminatedParameter(pattern: text, offset: nameEnd)
            }
            guard close + 1 == range.upperBound else { throw .trailingCharacters(pattern: text, offset: close + 1) }
            let typeName = string(nameEnd + 1..<close)
            guard let type = ParameterType(rawValue: typeName) else {
                throw .unknownType(pattern: text, type: typeName, offset: nameEnd + 1)
            }
            return (.typed(name: name, type: type), nil)
        case UInt8(ascii: "{"):
            guard let close = closingBrace(from: nameEnd), close < range.upperBound else {
                throw .unterminatedParameter(pattern: text, offset: nameEnd)
            }
            guard close + 1 == range.upperBound else { throw .trailingCharacters(pattern: text, offset: close + 1) }
            let source = string(nameEnd + 1..<close)
            do {
                return (.validated(name: name, validator: source), try ValidatorSyntax.compile(source))
            } catch {
                let offset = nameEnd + 1 + source.unicodeScalars.prefix(error.offset).reduce(0) { $0 + $1.utf8.count }
                throw .invalidValidator(pattern: text, reason: error.reason, offset: offset)
            }
        default:
            throw .invalidParameterName(pattern: text, offset: nameEnd)
        }
    }

    /// Where a name starting at `start` ends; `start` itself when there is no valid name there.
    private func nameEnd(from start: Int, in range: Range<Int>) -> Int {
        guard start < range.upperBound, isLetter(bytes[start]) || bytes[start] == UInt8(ascii: "_") else {
            return start
        }
        var index = start + 1
        while index < range.upperBound, isLetter(bytes[index]) || isDigit(bytes[index]) || bytes[index] == UInt8(ascii: "_") {
            index += 1
        }
        return index
    }

    private func string(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    private func isLetter(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
