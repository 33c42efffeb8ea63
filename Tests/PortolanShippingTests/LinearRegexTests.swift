@testable import PortolanShipping
import Testing

/// `LinearRegex`, the `--filter` matcher: what it matches, what it refuses and why, agreement
/// with Swift's `Regex` on random patterns, and bounded work on patterns that make a
/// backtracking engine take exponential time.
@Suite struct LinearRegexTests {
    struct MatchCase: Sendable, CustomTestStringConvertible {
        let pattern: String
        let name: String
        let expected: Bool
        init(_ pattern: String, _ name: String, _ expected: Bool) {
            self.pattern = pattern
            self.name = name
            self.expected = expected
        }
        var testDescription: String { "\(pattern.debugDescription) on \(name.debugDescription)" }
    }

    static let matchCases: [MatchCase] = [
        // Literals, unanchored.
        .init("abc", "xxabcxx", true), .init("abc", "abx", false), .init("checkout", "pay at checkout", true),
        // `.` is any scalar but a newline.
        .init("a.c", "abc", true), .init("a.c", "a\nc", false), .init(".", "", false),
        // Anchors: the start and the very end of the name.
        .init("^ab", "abc", true), .init("^b", "abc", false), .init("c$", "abc", true), .init("b$", "abc", false),
        .init("^$", "", true), .init("^$", "a", false), .init("a$", "a\n", false), .init("^abc$", "abc", true),
        // Alternation, empty branches.
        .init("cat|dog", "hotdog", true), .init("cat|dog", "cow", false), .init("a|", "zzz", true),
        .init("^(cat|dog)$", "dog", true), .init("^(cat|dog)$", "dogs", false),
        // Groups, non-capturing and named ones.
        .init("(ab)+c", "ababc", true), .init("(?:ab)+c", "abac", false), .init("(?<name>ab)c", "abc", true),
        .init("(?P<n>x)y", "xy", true), .init("()", "x", true), .init("^(\\b)?x", "x", true), .init("(a|b(c|d)*)+e", "abcdce", true),
        // Quantifiers and their lazy forms.
        .init("ab*c", "ac", true), .init("ab+c", "ac", false), .init("ab+c", "abbc", true), .init("ab?c", "abbc", false),
        .init("ab?c", "ac", true), .init("ab*?c", "abbc", true), .init("ab+?c", "ac", false), .init("ab??c", "abc", true),
        // Counts.
        .init("^a{3}$", "aaa", true), .init("^a{3}$", "aa", false), .init("^a{2,}$", "aaaaa", true),
        .init("^a{2,}$", "a", false), .init("^a{2,3}$", "aaaa", false), .init("^a{2,3}$", "aaa", true),
        .init("^a{,2}$", "aa", true), .init("^a{,2}$", "aaa", false), .init("^a{0}$", "", true),
        .init("^(ab){2}$", "abab", true), .init("^a{1000}$", String(repeating: "a", count: 1000), true),
        .init("^a{1000}$", String(repeating: "a", count: 999), false), .init("a{2}?", "a", false),
        .init("a{2}?", "aa", true),
        // A `{` that forms no count is a literal.
        .init("a{", "a{", true), .init("a{x}", "a{x}", true), .init("{}", "{}", true), .init("a{,}", "a{,}", true),
        .init("a{,}", "a", false), .init("}", "}", true), .init("a]", "a]", true),
        // Classes.
        .init("[abc]", "xbx", true), .init("[abc]", "xyz", false), .init("^[a-z]+$", "hello", true),
        .init("^[a-z]+$", "Hello", false), .init("[^a-z]", "abc", false), .init("[^a-z]", "abC", true),
        .init("[\\d_]", "x_", true), .init("[\\]]", "]", true), .init("[]a]", "]", true), .init("[a-]", "-", true),
        .init("[-a]", "-", true), .init("[\\-z]", "-", true), .init("[\\D]", "1", false), .init("[\\D]", "x", true),
        .init("[\\b]", "\u{08}", true), .init("[\\t]", "\t", true), .init("[é-ë]", "ê", true), .init("[.]", "a", false),
        .init("[\\W\\d]", "7", true), .init("[\\W\\d]", "x", false), .init("[^\\s]", " \t", false),
        // Escapes, ASCII classes.
        .init("\\d+", "v12", true), .init("\\d", "abc", false), .init("\\D", "123", false), .init("\\w", "---", false),
        .init("^\\w+$", "a_Z9", true), .init("\\W", "a b", true), .init("\\s", "a\tb", true), .init("\\S", " \n", false),
        .init("\\s", "a\u{0B}b", true), .init("\\d", "٣", false), .init("\\w", "é", false), .init("\\s", "\u{A0}", false),
        .init("\\bcat\\b", "a cat here", true), .init("\\bcat\\b", "concat", false), .init("\\Bcat", "concat", true),
        .init("\\b", "", false), .init("\\B", "", true), .init("\\.", "a.b", true), .init("\\.", "ab", false),
        .init("\\\\", "a\\b", true), .init("\\t", "a\tb", true), .init("\\n", "a\nb", true), .init("\\(\\)", "f()", true),
        .init("\\*\\+\\?\\{\\}\\[\\]\\^\\$\\|", "*+?{}[]^$|", true), .init("\\é", "é", true),
        // Case-insensitive.
        .init("(?i)hello", "HeLLo world", true), .init("hello", "HELLO", false), .init("(?i)[a-c]+x", "ABCX", true),
        .init("(?i)[^a]", "A", false), .init("(?i)é", "É", true), .init("(?i)\\W", "A", false),
        // Unicode scalars, not Characters.
        .init("^.$", "e\u{301}", false), .init("^..$", "e\u{301}", true), .init("^.$", "🙂", true),
        // The empty pattern matches everything.
        .init("", "", true), .init("", "anything", true),
    ]

    @Test(arguments: matchCases) func matches(_ test: MatchCase) throws {
        let regex = try LinearRegex(test.pattern)
        #expect(regex.containsMatch(in: test.name) == test.expected)
    }

    static let syntaxErrors: [(String, String)] = [
        (")", "unmatched ')' at 0"), ("abcd)", "unmatched ')' at 4"),
        ("(ab", "unmatched '(' at 0"), ("a(b(c)", "unmatched '(' at 1"),
        ("(a)\\1", "backreferences are not supported (--filter matches in linear time) at 3"),
        ("\\k<n>", "backreferences are not supported (--filter matches in linear time) at 0"),
        ("a(?=b)", "lookahead is not supported (--filter matches in linear time) at 1"),
        ("(?!b)", "lookahead is not supported (--filter matches in linear time) at 0"),
        ("(?<=a)b", "lookbehind is not supported (--filter matches in linear time) at 0"),
        ("x(?<!a)b", "lookbehind is not supported (--filter matches in linear time) at 1"),
        ("(?>a)", "atomic groups are not supported (--filter matches in linear time) at 0"),
        ("a*+", "possessive quantifiers are not supported (--filter matches in linear time) at 2"),
        ("a{2}+", "possessive quantifiers are not supported (--filter matches in linear time) at 4"),
        ("*a", "'*' has nothing to repeat at 0"), ("a|+b", "'+' has nothing to repeat at 2"),
        ("(*)", "'*' has nothing to repeat at 1"), ("{2}", "'{' has nothing to repeat at 0"),
        ("^?", "'?' has nothing to repeat at 1"), ("a$*", "'*' has nothing to repeat at 2"), ("a\\b{2}", "'{' has nothing to repeat at 3"),
        ("a**", "a quantifier cannot follow another quantifier at 2"),
        ("a{2}{3}", "a quantifier cannot follow another quantifier at 4"),
        ("a???", "a quantifier cannot follow another quantifier at 3"),
        ("[abc", "unterminated character class at 0"), ("x[^", "unterminated character class at 1"),
        ("[]", "unterminated character class at 0"), ("[z-a]", "class range is out of order at 1"),
        ("[\\d-z]", "a class range needs a single character at each end at 1"),
        ("[a-\\w]", "a class range needs a single character at each end at 1"),
        ("[[:alpha:]]", "'[' inside a class must be escaped as '\\[' at 1"),
        ("[a\\B]", "'\\B' is not allowed in a class at 2"),
        ("\\q", "unsupported escape '\\q' at 0"), ("a\\A", "unsupported escape '\\A' at 1"),
        ("\\x41", "unsupported escape '\\x' at 0"), ("\\0", "unsupported escape '\\0' at 0"),
        ("ab\\", "pattern ends with a lone '\\' at 2"),
        ("a{1001}", "repeat count above 1000 at 1"), ("a{99999999999999999999}", "repeat count above 1000 at 1"),
        ("a{3,2}", "repeat count {3,2} has its minimum above its maximum at 1"),
        ("(a{1000}){1000}", "pattern needs more than 10000 instructions (counted repeats multiply its size) at 9"),
        ("(?:a{1000}){10}", "pattern needs more than 10000 instructions (counted repeats multiply its size) at 11"),
        ("a(?i)b", "(?i) is only supported at the very start of the pattern at 1"),
        ("(?s)a", "unsupported group syntax '(?s' at 0"), ("(?<>x)", "invalid group name at 0"),
        ("(?<a-b>x)", "invalid group name at 0"),
        (String(repeating: "(", count: 201) + String(repeating: ")", count: 201), "groups nested more than 200 deep at 200"),
    ]

    @Test(arguments: syntaxErrors) func refuses(_ pattern: String, _ message: String) {
        do {
            _ = try LinearRegex(pattern)
            Issue.record("\(pattern.debugDescription) was accepted")
        } catch {
            #expect(error.description == message)
        }
    }

    /// The program's size is the one the parser counted against the limit: 10,000 is accepted. (A
    /// search over a name as long as the program would be 10^8 steps, too slow for a debug test;
    /// counts are matched at full length among `matchCases`, `^a{1000}$`.)
    @Test func programAtTheLimit() throws {
        let regex = try LinearRegex("(?:a{1000}){9}a{999}")
        #expect(regex.program.count == LinearRegexParser.instructionLimit)
        #expect(!regex.containsMatch(in: String(repeating: "a", count: 99)))
        let (matched, steps) = regex.countedSearch(in: "aaa")
        #expect(!matched && steps <= regex.stepsBound(scalarCount: 3))
    }

    /// Patterns on which a backtracking engine takes exponential time, against 20,000 `a`s: the
    /// search enters each state at most once per position, so its steps stay within the bound.
    @Test(arguments: ["(a*)*b", "(a|a)*b", "(a|aa)*c", "(.*){20}x"])
    func pathological(_ pattern: String) throws {
        let regex = try LinearRegex(pattern)
        let name = String(repeating: "a", count: 20_000)
        let (matched, steps) = regex.countedSearch(in: name)
        #expect(!matched)
        #expect(steps >= 20_000)
        #expect(steps <= regex.stepsBound(scalarCount: 20_000))
        #expect(regex.stepsBound(scalarCount: 20_000) == 20_001 * regex.program.count)
        #expect(regex.program.count <= 64)
        // The same name with the final scalar it wants matches.
        #expect(regex.containsMatch(in: name + String(pattern.last ?? "b")))
    }

    /// ~2,000 random patterns from the supported subset, each against random short names, agree
    /// with Swift's `Regex` (with ASCII classes and simple word boundaries, as `LinearRegex` has),
    /// which is a fine oracle on inputs this short. The oracle keeps Character semantics: every
    /// Character of the alphabet is one scalar, and in Swift 6.3 `.matchingSemantics(.unicodeScalar)`
    /// with simple boundaries does not count digits as word characters for `\b`.
    @Test func agreesWithSwiftRegex() throws {
        var random = SplitMix64(seed: 0x5EED_2024)
        var compared = 0
        var matched = 0
        for _ in 0..<2_000 {
            let pattern = RandomPattern.make(using: &random)
            let oracle = try Regex(pattern).wordBoundaryKind(.simple)
                .asciiOnlyWordCharacters().asciiOnlyDigits().asciiOnlyWhitespace()
            let regex: LinearRegex
            do {
                regex = try LinearRegex(pattern)
            } catch {
                Issue.record("\(pattern.debugDescription) refused: \(error)")
                continue
            }
            for _ in 0..<5 {
                let name = RandomPattern.subject(using: &random)
                let expected = try oracle.firstMatch(in: name) != nil
                #expect(regex.containsMatch(in: name) == expected, "\(pattern.debugDescription) on \(name.debugDescription)")
                compared += 1
                matched += expected ? 1 : 0
            }
        }
        #expect(compared == 10_000)
        // Both answers are common, so agreeing is not agreeing on "no" (or "yes") everywhere.
        #expect((2_000...8_000).contains(matched), "\(matched) of \(compared) matched")
    }
}

/// SplitMix64: a seeded generator, so a failing case can be run again.
private struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}

/// Random patterns from `LinearRegex`'s syntax and subjects over a small alphabet.
private enum RandomPattern {
    static let literals = ["a", "b", "c", "A", "_", " ", "-", "é"]
    static let escapes = ["\\d", "\\D", "\\w", "\\W", "\\s", "\\S", "\\.", "\\-", "\\n"]
    static let classMembers = ["a", "b", "A", "é", "_", " ", "a-c", "A-Z", "\\d", "\\w", "\\s", "\\W", "\\-", "."]
    static let assertions = ["^", "$", "\\b", "\\B"]
    static let quantifiers = ["*", "+", "?", "*?", "+?", "??"]
    static let alphabet: [String] = ["a", "b", "c", "A", "B", "1", "_", " ", "-", ".", "é", "É", "\n"]

    static func make(using random: inout SplitMix64) -> String {
        let body = alternation(depth: 3, using: &random)
        return Int.random(in: 0..<8, using: &random) == 0 ? "(?i)" + body : body
    }

    static func subject(using random: inout SplitMix64) -> String {
        (0..<Int.random(in: 0...8, using: &random)).map { _ in alphabet.randomElement(using: &random) ?? "a" }.joined()
    }

    private static func alternation(depth: Int, using random: inout SplitMix64) -> String {
        let count = [1, 1, 1, 2, 3].randomElement(using: &random) ?? 1
        return (0..<count).map { _ in concatenation(depth: depth, using: &random) }.joined(separator: "|")
    }

    private static func concatenation(depth: Int, using random: inout SplitMix64) -> String {
        (0..<Int.random(in: 0...4, using: &random)).map { _ in item(depth: depth, using: &random) }.joined()
    }

    private static func item(depth: Int, using random: inout SplitMix64) -> String {
        let pick = Int.random(in: 0..<20, using: &random)
        if pick < 2 { return assertions.randomElement(using: &random) ?? "^" }
        let atom: String
        switch pick {
        case 2..<9: atom = literals.randomElement(using: &random) ?? "a"
        case 9..<11: atom = "."
        case 11..<13: atom = escapes.randomElement(using: &random) ?? "\\d"
        case 13..<16: atom = characterClass(using: &random)
        default:
            guard depth > 0 else { return literals.randomElement(using: &random) ?? "a" }
            let open = Bool.random(using: &random) ? "(" : "(?:"
            atom = open + alternation(depth: depth - 1, using: &random) + ")"
        }
        return atom + quantifier(using: &random)
    }

    private static func quantifier(using random: inout SplitMix64) -> String {
        let n = Int.random(in: 0...3, using: &random)
        let m = n + Int.random(in: 0...2, using: &random)
        switch Int.random(in: 0..<12, using: &random) {
        case 0..<4: return ""
        case 4..<8: return quantifiers.randomElement(using: &random) ?? "*"
        case 8: return "{\(n)}"
        case 9: return "{\(n),}"
        case 10: return "{\(n),\(m)}" + (Bool.random(using: &random) ? "?" : "")
        default: return "{,\(m)}"
        }
    }

    private static func characterClass(using random: inout SplitMix64) -> String {
        let members = (0..<Int.random(in: 1...3, using: &random)).map { _ in
            classMembers.randomElement(using: &random) ?? "a"
        }
        return "[" + (Bool.random(using: &random) ? "^" : "") + members.joined() + "]"
    }
}
