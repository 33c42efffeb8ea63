/// A segment that mixes text and parameters: `:name.:ext`, `v-:version<int>`, `:a-:b-:c`.
///
/// **How a segment splits.** Read from its end: the text after the last parameter must end the
/// segment, and each parameter after the first begins after the *last* occurrence of the text
/// before it; the first parameter takes what is left, after the text that starts the pattern. Every
/// parameter takes at least one character. So `:name.:ext` splits `a.b.c` as `name=a.b`, `ext=c`,
/// as path-to-regexp and RoutingKit do (Vue Router's lazy split gives `ext=b.c`), and `:a-:b-:c`
/// splits `1-2-3` into three. The split is one backward scan: no backtracking, whatever the input.
///
/// Two parameters need text between them (`:a:b` has no split to choose), and a parameter in a
/// composite may be typed (`<int>`, `<uuid>`) but not validated: a validator's braces need the
/// whole segment. Letters of the text compare without case, ASCII only, when the route's constants
/// do (``RouteOptions``).
public struct CompositeSegment: Sendable, Hashable, CustomStringConvertible {
    public enum Piece: Sendable, Hashable {
        /// Text the segment must hold there, percent-decoded.
        case text(String)
        /// A parameter, typed or not.
        case parameter(name: String, type: ParameterType?)
    }

    /// Text and parameters alternating, never two parameters in a row; at least one parameter.
    public let pieces: [Piece]
    /// Each text piece's UTF-8, made once: a split compares bytes, and is asked on every URL the
    /// walk brings here.
    private let textBytes: [[UInt8]]
    /// The parameters, in order, as a split gives their values.
    private let parameters: [Parameter]

    private struct Parameter: Sendable, Hashable {
        let name: String
        let type: ParameterType?
    }

    init(pieces: [Piece]) {
        self.pieces = pieces
        textBytes = pieces.map { if case .text(let text) = $0 { Array(text.utf8) } else { [] } }
        parameters = pieces.compactMap { if case .parameter(let name, let type) = $0 { Parameter(name: name, type: type) } else { nil } }
    }

    public var parameterNames: [String] {
        pieces.compactMap { if case .parameter(let name, _) = $0 { name } else { nil } }
    }

    public var description: String {
        pieces.map { piece in
            switch piece {
            case .text(let text): Self.written(text)
            case .parameter(let name, let type): ":\(name)" + (type.map { "<\($0.rawValue)>" } ?? "")
            }
        }.joined()
    }

    /// The segment with its parameters' names left out: two composites of one shape accept the
    /// same segments.
    var shape: String {
        pieces.map { piece in
            switch piece {
            case .text(let text): Self.written(text)
            case .parameter(_, let type): ":" + (type.map { "<\($0.rawValue)>" } ?? "")
            }
        }.joined()
    }

    /// `text` as a pattern writes it: the characters the pattern syntax reads, escaped.
    private static func written(_ text: String) -> String {
        var written = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case ":", "{", "}", "?", "/", "%", "<", "*", "+": written += "%" + String(scalar.value, radix: 16, uppercase: true)
            default: written.unicodeScalars.append(scalar)
            }
        }
        return written
    }

    /// Adds each parameter's value in `segment` to `parameters`, a typed one as its type reads it
    /// (a match's values); false, adding nothing, when the segment does not split or a typed piece's
    /// text is not of its type.
    func capture(_ segment: String, foldingCase: Bool, into parameters: inout [String: ContextValue]) -> Bool {
        guard let ranges = ranges(in: segment.utf8.span, foldingCase: foldingCase), accepts(segment, ranges) else { return false }
        for (parameter, range) in zip(self.parameters, ranges) {
            let value = Self.text(of: segment, range)
            parameters[parameter.name] = parameter.type.flatMap { $0.value(of: value) } ?? .string(value)
        }
        return true
    }

    /// Whether `segment` splits, its typed values of their types: what a walk asks, without
    /// making the untyped values.
    func accepts(_ segment: String, foldingCase: Bool) -> Bool {
        guard let ranges = ranges(in: segment.utf8.span, foldingCase: foldingCase) else { return false }
        return accepts(segment, ranges)
    }

    /// Whether each typed value of a split is of its type.
    private func accepts(_ segment: String, _ ranges: [Range<Int>]) -> Bool {
        for (parameter, range) in zip(parameters, ranges) {
            if let type = parameter.type, !type.accepts(Self.text(of: segment, range)) { return false }
        }
        return true
    }

    private static func text(of segment: String, _ range: Range<Int>) -> String {
        let utf8 = segment.utf8
        return String(Substring(utf8[utf8.index(utf8.startIndex, offsetBy: range.lowerBound)..<utf8.index(utf8.startIndex, offsetBy: range.upperBound)]))
    }

    /// Where each parameter's value lies in the segment's bytes, in order, or nil when it does not
    /// split (the backward scan the type's comment describes).
    private func ranges(in bytes: Span<UInt8>, foldingCase: Bool) -> [Range<Int>]? {
        var end = bytes.count
        var index = pieces.count - 1
        if case .text = pieces[index] {
            let trailing = textBytes[index]
            end -= trailing.count
            guard end >= 0, Self.equal(bytes, at: end, trailing, foldingCase: foldingCase) else { return nil }
            index -= 1
        }
        var found: [Range<Int>] = []
        found.reserveCapacity(pieces.count / 2 + 1)
        while index >= 0 {
            guard case .parameter = pieces[index] else { return nil }
            // Where the parameter starts: after the text before it, which is anchored at the
            // segment's start when it leads the pattern and otherwise is its last occurrence that
            // leaves the parameter a character.
            var textStart = 0, start = 0
            if index > 0, case .text = pieces[index - 1] {
                let needle = textBytes[index - 1]
                if index - 1 == 0 {
                    guard Self.equal(bytes, at: 0, needle, foldingCase: foldingCase) else { return nil }
                } else {
                    guard let at = Self.lastOccurrence(of: needle, in: bytes, endingBy: end - 1, foldingCase: foldingCase)
                    else { return nil }
                    textStart = at
                }
                start = textStart + needle.count
            }
            guard start < end else { return nil }
            found.append(start..<end)
            end = textStart
            index -= 2
        }
        guard end == 0 else { return nil }
        found.reverse()
        return found
    }

    /// The start of the last occurrence of `needle` in `haystack` that ends at or before `limit`.
    private static func lastOccurrence(of needle: [UInt8], in haystack: Span<UInt8>, endingBy limit: Int, foldingCase: Bool) -> Int? {
        var start = limit - needle.count
        while start >= 0 {
            if equal(haystack, at: start, needle, foldingCase: foldingCase) { return start }
            start -= 1
        }
        return nil
    }

    private static func equal(_ haystack: Span<UInt8>, at start: Int, _ needle: [UInt8], foldingCase: Bool) -> Bool {
        guard start >= 0, start + needle.count <= haystack.count else { return false }
        for (offset, byte) in needle.enumerated() {
            let other = haystack[start + offset]
            if other == byte { continue }
            guard foldingCase, Self.folded(other) == Self.folded(byte) else { return false }
        }
        return true
    }

    private static func folded(_ byte: UInt8) -> UInt8 {
        byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte
    }

    /// A validator for every segment the composite could split, and more (a split may still
    /// fail where this matches, as `x--` for `:a-:b`): enough to prove two segment kinds disjoint,
    /// which is all the trie asks of it.
    func automaton(foldingCase: Bool) throws(ValidatorSyntax.Failure) -> SegmentValidator {
        var source = ""
        for piece in pieces {
            switch piece {
            case .text(let text):
                for scalar in text.unicodeScalars {
                    source += Self.validatorSource(of: scalar, foldingCase: foldingCase)
                }
            case .parameter(_, let type):
                source += type.map { "(\($0.validator.source))" } ?? ".+"
            }
        }
        return try ValidatorSyntax.compile(source)
    }

    private static func validatorSource(of scalar: Unicode.Scalar, foldingCase: Bool) -> String {
        if foldingCase, scalar.isASCII, scalar.properties.isAlphabetic {
            let lower = String(scalar).lowercased(), upper = String(scalar).uppercased()
            return "[\(lower)\(upper)]"
        }
        if scalar.isASCII, !(scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)) { return "\\\(scalar)" }
        return String(scalar)
    }
}
