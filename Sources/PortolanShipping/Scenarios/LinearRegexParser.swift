import Portolan

/// `LinearRegex`'s syntax tree and the parser that builds it. The parser also counts the
/// instructions each node compiles to, so that a pattern whose counted repeats would blow up
/// (`(a{1000}){1000}`) is refused while it is read, before anything that large is built.

indirect enum RegexNode {
    case scalar(ScalarTest)
    case assertion(RegexAssertion)
    case concatenation([RegexNode])
    case alternation([RegexNode])
    /// `max` nil: unbounded.
    case repetition(RegexNode, min: Int, max: Int?)
}

/// What an escape means, wherever it is written.
private enum Escape {
    case scalar(Unicode.Scalar)
    case set(ScalarSet, negated: Bool)
    case assertion(RegexAssertion)
}

/// `{n}`, `{n,}`, `{n,m}` or `{,m}`, and the offset just past its `}`.
private struct Count {
    var min: Int
    var max: Int?
    var end: Int
}

/// A recursive-descent parser over the pattern's scalars; offsets in its errors count scalars.
struct LinearRegexParser {
    /// The most instructions a pattern may compile to: bounds the work per scalar of a name.
    static let instructionLimit = 10_000
    static let countLimit = 1_000
    /// Parsing and compiling recurse once per group: a bound keeps a hostile `((((…` off the stack.
    static let nestingLimit = 200
    private static let linearTime = "(--filter matches in linear time)"

    /// A node and the number of instructions it compiles to.
    struct Parsed {
        var node: RegexNode
        var size: Int
    }

    private let pattern: [Unicode.Scalar]
    private var position = 0
    private var nesting = 0

    private init(_ pattern: [Unicode.Scalar]) {
        self.pattern = pattern
    }

    static func parse(_ text: String) throws(LinearRegex.SyntaxError) -> (root: Parsed, caseInsensitive: Bool) {
        var parser = LinearRegexParser(Array(text.unicodeScalars))
        let caseInsensitive = parser.consume("(?i)")
        let root = try parser.parseAlternation()
        // Alternation stops only at the end or at a `)` no group opened.
        if parser.position < parser.pattern.count { throw parser.fail("unmatched ')'", at: parser.position) }
        return (root, caseInsensitive)
    }

    private func peek(_ ahead: Int = 0) -> Unicode.Scalar? {
        position + ahead < pattern.count ? pattern[position + ahead] : nil
    }

    private mutating func consume(_ text: String) -> Bool {
        let scalars = Array(text.unicodeScalars)
        guard pattern[position...].starts(with: scalars) else { return false }
        position += scalars.count
        return true
    }

    private func fail(_ problem: String, at offset: Int) -> LinearRegex.SyntaxError {
        LinearRegex.SyntaxError(problem: problem, offset: offset)
    }

    /// Refuses a node too large to leave room, within the limit, for the program's final `match`.
    private func check(size: Int, at offset: Int) throws(LinearRegex.SyntaxError) {
        guard size + 1 > Self.instructionLimit else { return }
        throw fail("pattern needs more than \(Self.instructionLimit) instructions (counted repeats multiply its size)", at: offset)
    }

    private mutating func parseAlternation() throws(LinearRegex.SyntaxError) -> Parsed {
        let start = position
        var branches = [try parseConcatenation()]
        while peek() == "|" {
            position += 1
            branches.append(try parseConcatenation())
        }
        guard branches.count > 1 else { return branches[0] }
        // Each branch but the last adds a split before it and a jump after it.
        let size = branches.reduce(0) { $0 + $1.size } + 2 * (branches.count - 1)
        try check(size: size, at: start)
        return Parsed(node: .alternation(branches.map(\.node)), size: size)
    }

    private mutating func parseConcatenation() throws(LinearRegex.SyntaxError) -> Parsed {
        var items: [RegexNode] = []
        var size = 0
        while let next = peek(), next != "|", next != ")" {
            let start = position
            let item = try parseQuantified(next)
            size += item.size
            try check(size: size, at: start)
            items.append(item.node)
        }
        if items.count == 1, let only = items.first { return Parsed(node: only, size: size) }
        return Parsed(node: .concatenation(items), size: size)
    }

    private mutating func parseQuantified(_ first: Unicode.Scalar) throws(LinearRegex.SyntaxError) -> Parsed {
        let atom = try parseAtom(first)
        let start = position
        // As in Swift's Regex: repeating a bare zero-width test is a mistake (a group holding
        // one, `(\b)?`, may repeat).
        if first != "(", case .assertion = atom.node, quantifierStarts(at: start) {
            throw fail("'\(pattern[start])' has nothing to repeat", at: start)
        }
        guard let (min, max) = try parseQuantifier() else { return atom }
        // A lazy quantifier prefers fewer repeats, which changes which match is found, never
        // whether there is one.
        if peek() == "?" {
            position += 1
        } else if peek() == "+" {
            throw fail("possessive quantifiers are not supported \(Self.linearTime)", at: position)
        }
        if quantifierStarts(at: position) {
            throw fail("a quantifier cannot follow another quantifier", at: position)
        }
        let size: Int
        switch max {
        case nil where min == 0: size = atom.size + 2  // split, body, jump back
        case nil: size = min * atom.size + 1  // the last copy loops through a split
        case let max?: size = min * atom.size + (max - min) * (atom.size + 1)  // optional copies
        }
        try check(size: size, at: start)
        return Parsed(node: .repetition(atom.node, min: min, max: max), size: size)
    }

    private func quantifierStarts(at offset: Int) -> Bool {
        guard offset < pattern.count else { return false }
        return ["*", "+", "?"].contains(pattern[offset]) || scanCount(at: offset) != nil
    }

    private mutating func parseQuantifier() throws(LinearRegex.SyntaxError) -> (Int, Int?)? {
        switch peek() {
        case "*": position += 1; return (0, nil)
        case "+": position += 1; return (1, nil)
        case "?": position += 1; return (0, 1)
        default: break
        }
        guard let count = scanCount(at: position) else { return nil }
        if count.min > Self.countLimit || (count.max ?? 0) > Self.countLimit {
            throw fail("repeat count above \(Self.countLimit)", at: position)
        }
        if let max = count.max, count.min > max {
            throw fail("repeat count {\(count.min),\(max)} has its minimum above its maximum", at: position)
        }
        position = count.end
        return (count.min, count.max)
    }

    /// The count starting at `offset`, or nil when the `{` there is a literal (`{`, `{x}`, `{}`).
    /// Numbers saturate just above the limit so that huge ones are refused, not overflowed.
    private func scanCount(at offset: Int) -> Count? {
        var index = offset + 1
        func number() -> Int? {
            var value: Int?
            while index < pattern.count, ("0"..."9").contains(pattern[index]) {
                let digit = Int(pattern[index].value) - 0x30
                value = Swift.min((value ?? 0) * 10 + digit, Self.countLimit + 1)
                index += 1
            }
            return value
        }
        guard offset < pattern.count, pattern[offset] == "{" else { return nil }
        let low = number()
        var high = low
        if index < pattern.count, pattern[index] == "," {
            index += 1
            high = number()
        }
        guard index < pattern.count, pattern[index] == "}", low != nil || high != nil else { return nil }
        return Count(min: low ?? 0, max: high, end: index + 1)
    }

    private mutating func parseAtom(_ first: Unicode.Scalar) throws(LinearRegex.SyntaxError) -> Parsed {
        let start = position
        switch first {
        case "(": return try parseGroup()
        case "[":
            let (members, negated) = try parseClass()
            return Parsed(node: .scalar(.set(members, negated: negated)), size: 1)
        case "\\": return try parseEscape()
        case "*", "+", "?":
            throw fail("'\(first)' has nothing to repeat", at: start)
        case "{" where scanCount(at: start) != nil:
            throw fail("'{' has nothing to repeat", at: start)
        default: break
        }
        position += 1
        switch first {
        case ".": return Parsed(node: .scalar(.anyButNewline), size: 1)
        case "^": return Parsed(node: .assertion(.start), size: 1)
        case "$": return Parsed(node: .assertion(.end), size: 1)
        default: return Parsed(node: .scalar(.literal(first)), size: 1)
        }
    }

    private mutating func parseGroup() throws(LinearRegex.SyntaxError) -> Parsed {
        let open = position
        position += 1
        try parseGroupPrefix(open: open)
        guard nesting < Self.nestingLimit else {
            throw fail("groups nested more than \(Self.nestingLimit) deep", at: open)
        }
        nesting += 1
        defer { nesting -= 1 }
        let body = try parseAlternation()
        guard peek() == ")" else { throw fail("unmatched '('", at: open) }
        position += 1
        return body
    }

    /// Skips `?:` or a group name; refuses every other `(?` form.
    private mutating func parseGroupPrefix(open: Int) throws(LinearRegex.SyntaxError) {
        guard peek() == "?" else { return }
        if consume("?:") { return }
        if consume("?=") || consume("?!") {
            throw fail("lookahead is not supported \(Self.linearTime)", at: open)
        }
        if consume("?<=") || consume("?<!") {
            throw fail("lookbehind is not supported \(Self.linearTime)", at: open)
        }
        if consume("?>") { throw fail("atomic groups are not supported \(Self.linearTime)", at: open) }
        if consume("?i)") { throw fail("(?i) is only supported at the very start of the pattern", at: open) }
        if consume("?<") || consume("?P<") {
            // A named group is matched as a plain one: nothing here reads captures.
            let nameStart = position
            while let next = peek(), next.isASCII, next == "_" || next.properties.isAlphabetic
                || ("0"..."9").contains(next) {
                position += 1
            }
            guard position > nameStart, peek() == ">" else { throw fail("invalid group name", at: open) }
            position += 1
            return
        }
        let what = peek(1).map { "'(?\($0)'" } ?? "'(?'"
        throw fail("unsupported group syntax \(what)", at: open)
    }

    private mutating func parseEscape() throws(LinearRegex.SyntaxError) -> Parsed {
        switch try parseEscapeMeaning() {
        case .scalar(let scalar): Parsed(node: .scalar(.literal(scalar)), size: 1)
        case .set(let members, let negated): Parsed(node: .scalar(.set(members, negated: negated)), size: 1)
        case .assertion(let assertion): Parsed(node: .assertion(assertion), size: 1)
        }
    }

    private mutating func parseEscapeMeaning() throws(LinearRegex.SyntaxError) -> Escape {
        let start = position
        position += 1
        guard let escaped = peek() else { throw fail("pattern ends with a lone '\\'", at: start) }
        position += 1
        switch escaped {
        case "d", "D": return .set(ScalarSet.digits, negated: escaped == "D")
        case "w", "W": return .set(ScalarSet.word, negated: escaped == "W")
        case "s", "S": return .set(ScalarSet.blanks, negated: escaped == "S")
        case "b": return .assertion(.wordBoundary)
        case "B": return .assertion(.notWordBoundary)
        case "t": return .scalar("\t")
        case "n": return .scalar("\n")
        case "r": return .scalar("\r")
        case "f": return .scalar("\u{0C}")
        case "v": return .scalar("\u{0B}")
        case "1"..."9", "k", "g":
            throw fail("backreferences are not supported \(Self.linearTime)", at: start)
        default:
            // Escaped punctuation (or any non-ASCII-alphanumeric) is itself; an unknown letter
            // is refused rather than guessed, as it means something in some other engine.
            if escaped.isASCII, escaped.properties.isAlphabetic || ("0"..."9").contains(escaped) {
                throw fail("unsupported escape '\\\(escaped)'", at: start)
            }
            return .scalar(escaped)
        }
    }

    /// `[…]` or `[^…]`. A `]` first in the class is a member, as in POSIX and PCRE; an unescaped
    /// `[` inside is refused, as engines disagree on it (nested classes, `[:alpha:]`).
    private mutating func parseClass() throws(LinearRegex.SyntaxError) -> (members: ScalarSet, negated: Bool) {
        let open = position
        position += 1
        let negated = consume("^")
        var ranges: [ClosedRange<UInt32>] = []
        var first = true
        while true {
            guard let next = peek() else { throw fail("unterminated character class", at: open) }
            if next == "]", !first {
                position += 1
                return (ScalarSet(ranges), negated)
            }
            first = false
            if next == "[" { throw fail("'[' inside a class must be escaped as '\\['", at: position) }
            try parseClassMember(into: &ranges)
        }
    }

    /// One scalar, one escape, or a range `a-z`; a `-` just before the closing `]` is literal.
    private mutating func parseClassMember(into ranges: inout [ClosedRange<UInt32>]) throws(LinearRegex.SyntaxError) {
        let start = position
        let low = try parseClassAtom()
        guard peek() == "-", let after = peek(1), after != "]" else {
            ranges += low
            return
        }
        position += 1
        let high = try parseClassAtom()
        guard low.count == 1, high.count == 1, low[0].count == 1, high[0].count == 1 else {
            throw fail("a class range needs a single character at each end", at: start)
        }
        guard low[0].lowerBound <= high[0].lowerBound else {
            throw fail("class range is out of order", at: start)
        }
        ranges.append(low[0].lowerBound...high[0].lowerBound)
    }

    /// The ranges one class atom adds; a single scalar is one range of one value.
    private mutating func parseClassAtom() throws(LinearRegex.SyntaxError) -> [ClosedRange<UInt32>] {
        guard let next = peek() else { return [] }
        guard next == "\\" else {
            position += 1
            return [next.value...next.value]
        }
        let start = position
        switch try parseEscapeMeaning() {
        case .scalar(let scalar): return [scalar.value...scalar.value]
        case .set(let members, let negated): return (negated ? members.inverted() : members).ranges
        // Inside a class `\b` is backspace, as in PCRE and Swift.
        case .assertion(.wordBoundary): return [0x08...0x08]
        case .assertion: throw fail("'\\B' is not allowed in a class", at: start)
        }
    }
}
