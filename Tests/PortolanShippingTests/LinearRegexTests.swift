@testable import PortolanShipping
import Testing
import TestSupport

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
        var random = SeededRandom(seed: 0x5EED_2024)
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

extension LinearRegexTests {
    /// Repeats of what can match empty, which the random patterns leave out (Swift's `Regex`
    /// is too slow on some of them), agree with it on every name over `abc` up to 5 long.
    @Test(arguments: [
        "(a*)*b", "(a*)+$", "^(a?)*c", "(|a)*b", "(a|b*)*c", "((a*)*|b)*c", "^(a*b*)*$", "(\\b|a)*c",
        "(^|a)+b", "(a*)*", "^(a?){3}b", "(a*){2,3}c", "(?:a|)+?b", "(a??)*?c$", "^(?:a*|b)*?c(b?)+$",
    ])
    func nullableRepeatsAgree(_ pattern: String) throws {
        let oracle = try Regex(pattern)
        let regex = try LinearRegex(pattern)
        var names = [""]
        for length in 1...5 {
            names += names.filter { $0.count == length - 1 }.flatMap { name in ["a", "b", "c"].map { name + $0 } }
        }
        #expect(names.count == 364)
        for name in names {
            let expected = try oracle.firstMatch(in: name) != nil
            #expect(regex.containsMatch(in: name) == expected, "\(pattern.debugDescription) on \(name.debugDescription)")
        }
    }
}

extension SeededRandom {
    /// One of `choices`, which is never empty here.
    fileprivate mutating func piece(of choices: [String]) -> String { pick(choices) ?? "" }
}

/// Random patterns from `LinearRegex`'s syntax and subjects over a small alphabet. Swift's
/// `Regex` backtracks, and takes minutes on some patterns even against a few scalars: nested
/// repeats of unbounded repeats (the very problem `LinearRegex` solves), and counted repeats of
/// groups that can match empty (`((|b?){3,5}?){2,3}x` against `ab`). So a group that can match
/// empty is repeated only by `?`, and one holding an unbounded repeat only a bounded number of
/// times; the table and `nullableRepeatsAgree` cover `(a*)*` and kin.
private enum RandomPattern {
    static let literals = ["a", "b", "c", "A", "_", " ", "-", "é"]
    static let escapes = ["\\d", "\\D", "\\w", "\\W", "\\s", "\\S", "\\.", "\\-", "\\n"]
    static let classMembers = ["a", "b", "A", "é", "_", " ", "a-c", "A-Z", "\\d", "\\w", "\\s", "\\W", "\\-", "."]
    static let assertions = ["^", "$", "\\b", "\\B"]
    static let alphabet = ["a", "b", "c", "A", "B", "1", "_", " ", "-", ".", "é", "É", "\n"]

    /// A pattern's text, whether it holds an unbounded repeat, and whether it can match empty.
    struct Piece {
        var text: String
        var unbounded = false
        var nullable = false
    }

    static func make(using random: inout SeededRandom) -> String {
        let body = alternation(depth: 3, using: &random).text
        return random.below(8) == 0 ? "(?i)" + body : body
    }

    static func subject(using random: inout SeededRandom) -> String {
        (0..<random.below(9)).map { _ in random.piece(of: alphabet) }.joined()
    }

    private static func alternation(depth: Int, using random: inout SeededRandom) -> Piece {
        let branches = (0..<[1, 1, 1, 2, 3][random.below(5)]).map { _ in concatenation(depth: depth, using: &random) }
        return Piece(text: branches.map(\.text).joined(separator: "|"), unbounded: branches.contains { $0.unbounded },
                     nullable: branches.contains { $0.nullable })
    }

    private static func concatenation(depth: Int, using random: inout SeededRandom) -> Piece {
        let items = (0..<random.below(5)).map { _ in item(depth: depth, using: &random) }
        return Piece(text: items.map(\.text).joined(), unbounded: items.contains { $0.unbounded },
                     nullable: items.allSatisfy { $0.nullable })
    }

    private static func item(depth: Int, using random: inout SeededRandom) -> Piece {
        let pick = random.below(20)
        if pick < 2 { return Piece(text: random.piece(of: assertions), nullable: true) }
        var atom: Piece
        switch pick {
        case 2..<9: atom = Piece(text: random.piece(of: literals))
        case 9..<11: atom = Piece(text: ".")
        case 11..<13: atom = Piece(text: random.piece(of: escapes))
        case 13..<16: atom = Piece(text: characterClass(using: &random))
        default:
            guard depth > 0 else { return Piece(text: random.piece(of: literals)) }
            atom = alternation(depth: depth - 1, using: &random)
            atom.text = (random.below(2) == 0 ? "(" : "(?:") + atom.text + ")"
            // A group that can match empty is repeated by `?` at most (see above).
            if atom.nullable {
                if random.below(2) == 0 { atom.text += "?" }
                return atom
            }
        }
        return quantified(atom, using: &random)
    }

    private static func quantified(_ atom: Piece, using random: inout SeededRandom) -> Piece {
        let n = random.below(4)
        let m = n + random.below(3)
        let suffix: String
        var min = 0
        var unbounded = false
        switch random.below(12) {
        case 0..<4: return atom
        case 4..<6: suffix = ["?", "??"][random.below(2)]
        case 6..<8 where !atom.unbounded:
            suffix = ["*", "+", "*?", "+?"][random.below(4)]
            min = suffix.hasPrefix("+") ? 1 : 0
            unbounded = true
        case 9 where !atom.unbounded:
            suffix = "{\(n),}"
            (min, unbounded) = (n, true)
        case 8, 9: (suffix, min) = ("{\(n)}", n)
        case 10: (suffix, min) = ("{\(n),\(m)}" + (random.below(2) == 0 ? "?" : ""), n)
        default: suffix = "{,\(m)}"
        }
        return Piece(text: atom.text + suffix, unbounded: atom.unbounded || unbounded, nullable: atom.nullable || min == 0)
    }

    private static func characterClass(using random: inout SeededRandom) -> String {
        let members = (0..<(1 + random.below(3))).map { _ in random.piece(of: classMembers) }
        return "[" + (random.below(2) == 0 ? "^" : "") + members.joined() + "]"
    }
}
