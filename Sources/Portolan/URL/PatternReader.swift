/// The byte-level reader behind ``RoutePattern/init(_:options:)``: the scheme and host, then each
/// path the pattern stands for (``PatternAlternatives``), segment by segment.
struct PatternReader {
    let text: String
    let bytes: UnsafeBufferPointer<UInt8>

    struct Parsed {
        var scheme: String?
        var host: String?
        var alternatives: [RoutePattern.Alternative] = []
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
        for path in try PatternAlternatives.expand(bytes, pathStart..<bytes.count, pattern: text) {
            let alternative = try path.withUnsafeBufferPointer { offsets throws(URLRoutingError) in
                try readPath(offsets)
            }
            parsed.alternatives.append(alternative)
        }
        return parsed
    }

    /// One path of the pattern: the bytes at `offsets`, which ``PatternAlternatives`` kept.
    private func readPath(_ offsets: UnsafeBufferPointer<Int>) throws(URLRoutingError) -> RoutePattern.Alternative {
        let path = offsets.map { bytes[$0] }
        return try path.withUnsafeBufferPointer { pathBytes throws(URLRoutingError) in
            let reader = PatternReader(text: text, bytes: pathBytes)
            do throws(URLRoutingError) {
                return try reader.readSegments()
            } catch {
                // An offset at the path's end (a name missing there) is past its last byte.
                throw error.movingOffsets { $0 < offsets.count ? offsets[$0] : (offsets.last ?? -1) + 1 + $0 - offsets.count }
            }
        }
    }

    /// The segments of a path that has no optional part left (`bytes` is that path alone).
    private func readSegments() throws(URLRoutingError) -> RoutePattern.Alternative {
        let tokens = try tokenize(from: 0)
        guard tokens.count <= URLLimits.maximumSegments else { throw .tooManySegments(count: tokens.count) }
        var names = Set<String>()
        var segments: [PathSegmentPattern] = []
        var validators: [SegmentValidator?] = []
        var restOffset: Int?
        for token in tokens {
            let (segment, validator) = try readSegment(token)
            if case .rest = segment {
                if let restOffset { throw .secondRest(pattern: text, offset: token.lowerBound, first: restOffset) }
                restOffset = token.lowerBound
            }
            for name in segment.parameterNames where !names.insert(name).inserted {
                throw .duplicateParameter(pattern: text, name: name)
            }
            segments.append(segment)
            validators.append(validator)
        }
        let endsWithSlash = !segments.isEmpty && bytes.last == UInt8(ascii: "/")
        return RoutePattern.Alternative(segments: segments, endsWithSlash: endsWithSlash, validators: validators)
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
            // Groups are expanded by now, so a brace is a validator's, which may hold a `/`.
            if bytes[index] == UInt8(ascii: "{") {
                guard let close = PatternAlternatives.closingBrace(in: bytes, from: index, end: bytes.count) else {
                    throw .unterminatedParameter(pattern: text, offset: index)
                }
                index = close + 1
                continue
            }
            index += 1
        }
        return tokens
    }

    private func readSegment(_ range: Range<Int>) throws(URLRoutingError) -> (PathSegmentPattern, SegmentValidator?) {
        let first = bytes[range.lowerBound]
        if first == UInt8(ascii: "*") {
            if range.count == 1 { return (.anySegment, nil) }
            if bytes[range.lowerBound + 1] == UInt8(ascii: "*") {
                if range.count == 2 { return (.rest(name: nil, atLeastOne: false), nil) }
                let nameEnd = nameEnd(from: range.lowerBound + 2, in: range)
                guard nameEnd == range.upperBound else {
                    throw .invalidParameterName(pattern: text, offset: range.lowerBound + 2)
                }
                return (.rest(name: string(range.lowerBound + 2..<nameEnd), atLeastOne: false), nil)
            }
        }
        guard let colon = range.first(where: { bytes[$0] == UInt8(ascii: ":") }) else {
            return (.constant(try PercentDecoding.decode(bytes, range)), nil)
        }
        guard colon == range.lowerBound else { return (.composite(try readComposite(range)), nil) }
        let nameStart = range.lowerBound + 1
        let nameEnd = nameEnd(from: nameStart, in: range)
        guard nameEnd > nameStart else { throw .invalidParameterName(pattern: text, offset: nameStart) }
        let name = string(nameStart..<nameEnd)
        if nameEnd == range.upperBound { return (.parameter(name: name), nil) }
        switch bytes[nameEnd] {
        case UInt8(ascii: "+"), UInt8(ascii: "*"):
            guard nameEnd + 1 == range.upperBound else { throw .trailingCharacters(pattern: text, offset: nameEnd + 1) }
            return (.rest(name: name, atLeastOne: bytes[nameEnd] == UInt8(ascii: "+")), nil)
        case UInt8(ascii: "<"):
            let (type, close) = try readType(after: nameEnd, in: range)
            if close + 1 == range.upperBound { return (.typed(name: name, type: type), nil) }
            return (.composite(try readComposite(range)), nil)
        case UInt8(ascii: "{"):
            guard let close = PatternAlternatives.closingBrace(in: bytes, from: nameEnd, end: range.upperBound) else {
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
            return (.composite(try readComposite(range)), nil)
        }
    }

    /// The `<type>` that opens at `open`, and where its `>` is.
    private func readType(after open: Int, in range: Range<Int>) throws(URLRoutingError) -> (ParameterType, Int) {
        guard let close = (open..<range.upperBound).first(where: { bytes[$0] == UInt8(ascii: ">") }) else {
            throw .unterminatedParameter(pattern: text, offset: open)
        }
        let typeName = string(open + 1..<close)
        guard let type = ParameterType(rawValue: typeName) else {
            throw .unknownType(pattern: text, type: typeName, offset: open + 1)
        }
        return (type, close)
    }

    /// A segment of text and parameters: every `:` starts a parameter's name, which a `<type>` may
    /// follow; the text between is percent-decoded.
    private func readComposite(_ range: Range<Int>) throws(URLRoutingError) -> CompositeSegment {
        var pieces: [CompositeSegment.Piece] = []
        var index = range.lowerBound
        var textStart = index
        while index < range.upperBound {
            guard bytes[index] == UInt8(ascii: ":") else {
                index += 1
                continue
            }
            if textStart < index {
                pieces.append(.text(try PercentDecoding.decode(bytes, textStart..<index)))
            } else if !pieces.isEmpty {
                throw .adjacentParameters(pattern: text, offset: index)
            }
            let nameStart = index + 1
            let nameEnd = nameEnd(from: nameStart, in: range)
            guard nameEnd > nameStart else { throw .invalidParameterName(pattern: text, offset: nameStart) }
            var type: ParameterType?
            index = nameEnd
            if index < range.upperBound {
                switch bytes[index] {
                case UInt8(ascii: "<"):
                    let (parsed, close) = try readType(after: index, in: range)
                    type = parsed
                    index = close + 1
                case UInt8(ascii: "{"), UInt8(ascii: "+"), UInt8(ascii: "*"):
                    throw .needsWholeSegment(pattern: text, offset: index)
                default:
                    break
                }
            }
            pieces.append(.parameter(name: string(nameStart..<nameEnd), type: type))
            textStart = index
        }
        if textStart < range.upperBound { pieces.append(.text(try PercentDecoding.decode(bytes, textStart..<range.upperBound))) }
        return CompositeSegment(pieces: pieces)
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
