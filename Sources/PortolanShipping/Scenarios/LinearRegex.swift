import Portolan

/// A regular expression matched in time linear in the subject, for `--filter`: its pattern
/// comes from pull requests, and a backtracking engine spends exponential time on
/// `(a*)*b` against a long name. The pattern compiles to a small program of instructions, and a
/// search steps the set of states the program can be in once per scalar of the name, entering
/// each state at most once per position (a Thompson NFA simulated as in a Pike VM, without
/// captures, since only a yes or no is wanted). A search does at most
/// `(scalars + 1) × program size` steps; the program has at most 10,000 instructions.
///
/// Matching is over Unicode scalars, not Characters. The syntax is the subset of ERE and PCRE
/// people type as a filter:
/// - literals; `.` (any scalar but a newline); `^` and `$` (the start and the very end of the
///   subject: `$` does not match before a final newline); `|`; groups `( )`, `(?: )`, and
///   `(?<name> )` or `(?P<name> )` matched as plain groups.
/// - `*` `+` `?`, their lazy forms `*?` `+?` `??` (the same yes or no), and counts `{n}` `{n,}`
///   `{n,m}` `{,m}` with numbers up to 1000. A `{` that does not form a count is a literal
///   (`a{`, `{x}`, `{}`), as in PCRE.
/// - classes `[abc]` `[a-z]` `[^…]` with escapes inside; a `]` first in a class is a member;
///   inside a class `\b` is backspace.
/// - `\d` (ASCII digits), `\w` (ASCII letters, digits, underscore), `\s` (space, `\t` `\n` `\r`
///   `\f` `\v`), their negations `\D` `\W` `\S`; `\b` `\B` (word boundaries by that `\w`);
///   `\t` `\n` `\r` `\f` `\v`; a backslash before any other character that is not an ASCII
///   letter or digit stands for that character.
/// - `(?i)` at the very start: case-insensitive, by each scalar's simple lower and upper case.
///
/// Refused with a `SyntaxError`: backreferences (`\1`, `\k`, `\g`), lookahead and lookbehind,
/// atomic groups and possessive quantifiers, other `(?…)` forms, other letter or digit escapes,
/// an unescaped `[` inside a class, a quantifier with nothing to repeat or following another
/// quantifier, counts above 1000 or out of order, and programs over 10,000 instructions. The
/// empty pattern matches every subject.
public struct LinearRegex: Sendable {
    /// A pattern `LinearRegex` does not accept: `unmatched ')' at 4`.
    public struct SyntaxError: Error, CustomStringConvertible, Equatable {
        /// What is wrong, without the offset.
        public let problem: String
        /// Where, in Unicode scalars from 0.
        public let offset: Int

        public var description: String { "\(problem) at \(offset)" }
    }

    let program: [RegexInstruction]
    let caseInsensitive: Bool

    public init(_ pattern: String) throws(LinearRegex.SyntaxError) {
        let parsed = try LinearRegexParser.parse(pattern)
        var compiler = Compiler()
        compiler.emit(parsed.root.node)
        compiler.code.append(.match)
        program = compiler.code
        caseInsensitive = parsed.caseInsensitive
    }

    /// Whether some part of `text` matches (the whole of it only as `^` and `$` say).
    public func containsMatch(in text: String) -> Bool {
        countedSearch(in: text).matched
    }

    /// The search, with the number of steps it took: each step enters one state at one
    /// position and does constant work (a class test is a scan of its ranges, a few at most).
    func countedSearch(in text: String) -> (matched: Bool, steps: Int) {
        var simulation = Simulation(program: program, caseInsensitive: caseInsensitive)
        let matched = simulation.run(text)
        return (matched, simulation.steps)
    }

    /// The most steps a search of a subject of `scalarCount` scalars can take: a state is
    /// entered at most once at each of the `scalarCount + 1` positions.
    func stepsBound(scalarCount: Int) -> Int {
        (scalarCount + 1) * program.count
    }
}

/// One instruction of a compiled pattern. Control goes to the next instruction unless it says.
enum RegexInstruction: Sendable {
    /// Take one scalar if the test accepts it.
    case consume(ScalarTest)
    /// Continue at both targets.
    case split(Int, Int)
    case jump(Int)
    /// Continue only if the assertion holds here.
    case assert(RegexAssertion)
    case match
}

/// Lowers the syntax tree to instructions. Its sizes are the ones `LinearRegexParser` counted,
/// so the limit it checked holds for the program.
private struct Compiler {
    var code: [RegexInstruction] = []

    mutating func emit(_ node: RegexNode) {
        switch node {
        case .scalar(let test): code.append(.consume(test))
        case .assertion(let assertion): code.append(.assert(assertion))
        case .concatenation(let items): items.forEach { emit($0) }
        case .alternation(let branches): emitAlternation(branches)
        case .repetition(let body, let min, let max): emitRepetition(body, min: min, max: max)
        }
    }

    /// `split next-branch` before every branch but the last, `jump end` after it.
    private mutating func emitAlternation(_ branches: [RegexNode]) {
        var jumps: [Int] = []
        for (index, branch) in branches.enumerated() {
            guard index < branches.count - 1 else {
                emit(branch)
                break
            }
            let split = code.count
            code.append(.match)  // placeholder, patched below
            emit(branch)
            jumps.append(code.count)
            code.append(.match)  // placeholder, patched below
            code[split] = .split(split + 1, code.count)
        }
        for jump in jumps { code[jump] = .jump(code.count) }
    }

    private mutating func emitRepetition(_ body: RegexNode, min: Int, max: Int?) {
        switch max {
        case nil where min == 0:
            // loop: split body, end; body; jump loop; end:
            let loop = code.count
            code.append(.match)  // placeholder, patched below
            emit(body)
            code.append(.jump(loop))
            code[loop] = .split(loop + 1, code.count)
        case nil:
            // min - 1 copies, then a last copy that may go round again.
            for _ in 1..<min { emit(body) }
            let again = code.count
            emit(body)
            code.append(.split(again, code.count + 1))
        case let max?:
            // min copies, then max - min optional ones, each may skip to the end.
            for _ in 0..<min { emit(body) }
            var skips: [Int] = []
            for _ in min..<max {
                skips.append(code.count)
                code.append(.match)  // placeholder, patched below
                emit(body)
            }
            for skip in skips { code[skip] = .split(skip + 1, code.count) }
        }
    }
}

/// One search. States are instruction offsets. At each position the states reached from the
/// ones that took the previous scalar (and from the start, since a match may begin anywhere)
/// are followed through splits, jumps and assertions; those waiting to consume take the next
/// scalar or die. `reachedAt` makes entering a state twice at one position a no-op, which is
/// what bounds the work, and starting a position afresh is one increment of `generation`.
private struct Simulation {
    let program: [RegexInstruction]
    let caseInsensitive: Bool
    private(set) var steps = 0
    private var reachedAt: [Int]
    private var generation = 0
    /// States to follow at this position: an explicit stack, so a long program never recurses.
    private var pending: [Int] = []
    /// States that take the next scalar.
    private var consuming: [Int] = []
    /// Where the states that took the scalar continue, at the next position.
    private var survivors: [Int] = []

    init(program: [RegexInstruction], caseInsensitive: Bool) {
        self.program = program
        self.caseInsensitive = caseInsensitive
        reachedAt = Array(repeating: 0, count: program.count)
    }

    mutating func run(_ text: String) -> Bool {
        var scalars = text.unicodeScalars.makeIterator()
        var previous: Unicode.Scalar?
        var next = scalars.next()
        while true {
            survivors.append(0)
            if follow(after: previous, before: next) { return true }
            guard let scalar = next else { return false }
            take(scalar)
            previous = scalar
            next = scalars.next()
        }
    }

    /// Follows every state reachable from `survivors` without consuming; true on reaching `match`.
    private mutating func follow(after previous: Unicode.Scalar?, before next: Unicode.Scalar?) -> Bool {
        generation += 1
        consuming.removeAll(keepingCapacity: true)
        swap(&pending, &survivors)
        while let state = pending.popLast() {
            guard reachedAt[state] != generation else { continue }
            reachedAt[state] = generation
            steps += 1
            switch program[state] {
            case .match: return true
            case .consume: consuming.append(state)
            case .jump(let target): pending.append(target)
            case .split(let first, let second):
                pending.append(second)
                pending.append(first)
            case .assert(let assertion):
                if assertion.holds(after: previous, before: next) { pending.append(state + 1) }
            }
        }
        return false
    }

    private mutating func take(_ scalar: Unicode.Scalar) {
        survivors.removeAll(keepingCapacity: true)
        let variants = caseInsensitive ? Self.caseVariants(of: scalar) : [scalar]
        for state in consuming {
            guard case .consume(let test) = program[state], test.accepts(variants) else { continue }
            survivors.append(state + 1)
        }
    }

    /// The scalar, its lowercase and its uppercase, where each is a single scalar.
    private static func caseVariants(of scalar: Unicode.Scalar) -> [Unicode.Scalar] {
        func single(_ mapping: String) -> Unicode.Scalar? {
            let scalars = mapping.unicodeScalars
            return scalars.count == 1 ? scalars.first : nil
        }
        let properties = scalar.properties
        return [scalar, single(properties.lowercaseMapping) ?? scalar, single(properties.uppercaseMapping) ?? scalar]
    }
}

/// What one consuming instruction accepts.
enum ScalarTest: Sendable {
    case literal(Unicode.Scalar)
    /// `.`: every scalar but a newline.
    case anyButNewline
    /// A class; a negated one is tested as its members then negated, so that under `(?i)` `[^a]`
    /// refuses `A` as well as `a`.
    case set(ScalarSet, negated: Bool)
}

extension ScalarSet {
    /// `\s`: tab, newline, vertical tab, form feed, carriage return, space.
    static let blanks = ScalarSet([0x09...0x0D, 0x20...0x20])
}

/// A zero-width test between the previous scalar and the next one.
enum RegexAssertion: Sendable {
    case start, end, wordBoundary, notWordBoundary
}

extension ScalarTest {
    /// Whether the scalar whose case forms are `variants` (the scalar alone when case matters) passes.
    func accepts(_ variants: [Unicode.Scalar]) -> Bool {
        switch self {
        case .literal(let literal): variants.contains(literal)
        case .anyButNewline: variants.first != "\n"
        case .set(let set, let negated): variants.contains { set.contains($0.value) } != negated
        }
    }
}

extension RegexAssertion {
    func holds(after previous: Unicode.Scalar?, before next: Unicode.Scalar?) -> Bool {
        switch self {
        case .start: previous == nil
        case .end: next == nil
        case .wordBoundary: Self.isWord(previous) != Self.isWord(next)
        case .notWordBoundary: Self.isWord(previous) == Self.isWord(next)
        }
    }

    /// `\w`: ASCII letters, digits and underscore; no scalar (either end of the subject) is not.
    private static func isWord(_ scalar: Unicode.Scalar?) -> Bool {
        guard let scalar, scalar.isASCII else { return false }
        return scalar == "_" || ("0"..."9").contains(scalar) || ("a"..."z").contains(scalar)
            || ("A"..."Z").contains(scalar)
    }
}
