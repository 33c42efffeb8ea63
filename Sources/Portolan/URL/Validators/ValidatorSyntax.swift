/// The syntax of a validated parameter, `:name{validator}`, and its compiler.
///
/// A validator must match the whole segment (it is anchored at both ends). It is a subset of
/// regular expressions, with no backreferences or lookaround, so it always compiles to a finite
/// automaton:
///
/// | syntax | meaning |
/// | --- | --- |
/// | `abc` | those characters (any character but the special ones below) |
/// | `.` | any one character |
/// | `[a-z0-9_-]`, `[^/]` | one character in (or not in) the class; `-` is literal first or last |
/// | `\d`, `\w` | `[0-9]`, `[A-Za-z0-9_]` (also inside classes) |
/// | `\x` | the character `x` itself, for any special `x`: `\.`, `\{`, `\\` … |
/// | `(a|b)`, `a|b` | alternation, grouping |
/// | `?`, `*`, `+` | optional, zero or more, one or more |
/// | `{n}`, `{n,}`, `{n,m}` | counted repetition, n ≤ m ≤ 100 |
///
/// Examples: `:slug{[a-z0-9]+(-[a-z0-9]+)*}`, `:code{[A-Z]{3}}`, `:lang{en|fr|de}`,
/// `:file{[^.]+\.pdf}`. Braces nest, so `{3}` inside the validator does not close it.
/// A validator compiles to at most ``URLLimits/maximumValidatorPositions`` character positions.
enum ValidatorSyntax {
    /// Why a validator was refused, at a scalar offset into its source.
    struct Failure: Error {
        let reason: String
        let offset: Int
    }

    /// Parses and compiles `source` (the text between the braces).
    static func compile(_ source: String) throws(Failure) -> SegmentValidator {
        var parser = Parser(scalars: Array(source.unicodeScalars))
        guard !parser.scalars.isEmpty else { throw Failure(reason: "the validator is empty", offset: 0) }
        let tree = try parser.parseAll()
        var compiler = Compiler()
        let accept = compiler.appendAccept()
        let start = try compiler.compile(tree, next: accept)
        guard compiler.positionCount <= URLLimits.maximumValidatorPositions else {
            throw Failure(
                reason: "too large: at most \(URLLimits.maximumValidatorPositions) character positions", offset: 0)
        }
        return compiler.finish(source: source, start: start)
    }

    /// The parsed form of a validator.
    indirect enum Tree {
        case set(ScalarSet)
        case sequence([Tree])
        case alternation([Tree])
        case repetition(Tree, minimum: Int, maximum: Int?)
    }

    // MARK: Parsing

    private struct Parser {
        let scalars: [Unicode.Scalar]
        var index = 0

        static let maximumCount = 100

        mutating func parseAll() throws(Failure) -> Tree {
            let tree = try parseAlternation()
            if index < scalars.count {
                throw Failure(reason: "unexpected '\(scalars[index])'", offset: index)
            }
            return tree
        }

        private var current: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

        private mutating func parseAlternation() throws(Failure) -> Tree {
            var branches = [try parseSequence()]
            while current == "|" {
                index += 1
                branches.append(try parseSequence())
            }
            return branches.count == 1 ? branches[0] : .alternation(branches)
        }

        private mutating func parseSequence() throws(Failure) -> Tree {
            var items: [Tree] = []
            while let scalar = current, scalar != "|", scalar != ")" {
                var atom = try parseAtom()
                while let quantifier = current, "?*+{".unicodeScalars.contains(quantifier) {
                    atom = try parseQuantifier(applyingTo: atom)
                }
                items.append(atom)
            }
            return items.count == 1 ? items[0] : .sequence(items)
        }

        private mutating func parseAtom() throws(Failure) -> Tree {
            guard let scalar = current else { throw Failure(reason: "unexpected end", offset: index) }
            switch scalar {
            case "(":
                let open = index
                index += 1
                let inner = try parseAlternation()
                guard current == ")" else { throw Failure(reason: "unclosed '('", offset: open) }
                index += 1
                return inner
            case "[":
                return .set(try parseClass())
            case ".":
                index += 1
                return .set(.all)
            case "\\":
                return .set(try parseEscape())
            case "?", "*", "+", "{":
                throw Failure(reason: "'\(scalar)' has nothing to repeat", offset: index)
            case "]", "}":
                throw Failure(reason: "unexpected '\(scalar)'", offset: index)
            default:
                index += 1
                return .set(ScalarSet(scalar: scalar))
            }
        }

        private mutating func parseEscape() throws(Failure) -> ScalarSet {
            index += 1
            guard let escaped = current else { throw Failure(reason: "'\\' at the end", offset: index - 1) }
            index += 1
            switch escaped {
            case "d": return .digits
            case "w": return .word
            default: return ScalarSet(scalar: escaped)
            }
        }

        private mutating func parseClass() throws(Failure) -> ScalarSet {
            let open = index
            index += 1
            var negated = false
            if current == "^" {
                negated = true
                index += 1
            }
            var set = ScalarSet([])
            var first = true
            while true {
                guard let scalar = current else { throw Failure(reason: "unclosed '['", offset: open) }
                if scalar == "]" && !first { break }
                first = false
                var low: ScalarSet
                if scalar == "\\" {
                    low = try parseEscape()
                } else {
                    index += 1
                    low = ScalarSet(scalar: scalar)
                }
                // A range `a-z`, unless `-` is last in the class.
                if current == "-", index + 1 < scalars.count, scalars[index + 1] != "]",
                    low.ranges.count == 1, low.ranges[0].lowerBound == low.ranges[0].upperBound
                {
                    let dash = index
                    index += 1
                    let high: ScalarSet
                    if current == "\\" { high = try parseEscape() } else {
                        high = ScalarSet(scalar: scalars[index])
                        index += 1
                    }
                    guard high.ranges.count == 1, high.ranges[0].lowerBound == high.ranges[0].upperBound,
                        low.ranges[0].lowerBound <= high.ranges[0].lowerBound
                    else { throw Failure(reason: "invalid range", offset: dash) }
                    low = ScalarSet([low.ranges[0].lowerBound...high.ranges[0].lowerBound])
                }
                set = set.union(low)
            }
            index += 1
            let result = negated ? set.inverted() : set
            if result.isEmpty { throw Failure(reason: "the class matches nothing", offset: open) }
            return result
        }

        private mutating func parseQuantifier(applyingTo atom: Tree) throws(Failure) -> Tree {
            let start = index
            let scalar = scalars[index]
            index += 1
            switch scalar {
            case "?": return .repetition(atom, minimum: 0, maximum: 1)
            case "*": return .repetition(atom, minimum: 0, maximum: nil)
            case "+": return .repetition(atom, minimum: 1, maximum: nil)
            default: break
            }
            let minimum = try parseCount(at: start)
            var maximum: Int? = minimum
            if current == "," {
                index += 1
                maximum = current == "}" ? nil : try parseCount(at: start)
            }
            guard current == "}" else { throw Failure(reason: "expected '}' to close the count", offset: start) }
            index += 1
            if let maximum, maximum < minimum {
                throw Failure(reason: "{\(minimum),\(maximum)}: the maximum is below the minimum", offset: start)
            }
            return .repetition(atom, minimum: minimum, maximum: maximum)
        }

        private mutating func parseCount(at start: Int) throws(Failure) -> Int {
            var value = 0
            var digits = 0
            while let scalar = current, let digit = Int(exactly: scalar.value), digit >= 0x30, digit <= 0x39 {
                value = value * 10 + digit - 0x30
                digits += 1
                index += 1
                if value > Self.maximumCount {
                    throw Failure(reason: "counts are at most \(Self.maximumCount)", offset: start)
                }
            }
            guard digits > 0 else { throw Failure(reason: "expected a count", offset: index) }
            return value
        }
    }

    // MARK: Compiling

    /// Thompson's construction, built back to front (each piece knows its successor), then
    /// reduced to a position automaton by taking ε-closures.
    private struct Compiler {
        enum State {
            case consume(ScalarSet, next: Int)
            case split(Int, Int)
            case accept
        }

        var states: [State] = []
        /// Bounds the work before the position cap is checked (nested counts multiply).
        static let maximumStates = 4 * URLLimits.maximumValidatorPositions + 64

        mutating func appendAccept() -> Int {
            states.append(.accept)
            return states.count - 1
        }

        private mutating func append(_ state: State) throws(Failure) -> Int {
            guard states.count < Self.maximumStates else {
                throw Failure(
                    reason: "too large: at most \(URLLimits.maximumValidatorPositions) character positions", offset: 0)
            }
            states.append(state)
            return states.count - 1
        }

        mutating func compile(_ tree: Tree, next: Int) throws(Failure) -> Int {
            switch tree {
            case .set(let set):
                return try append(.consume(set, next: next))
            case .sequence(let items):
                var start = next
                for item in items.reversed() { start = try compile(item, next: start) }
                return start
            case .alternation(let branches):
                var start = try compile(branches[branches.count - 1], next: next)
                for branch in branches.dropLast().reversed() {
                    let branchStart = try compile(branch, next: next)
                    start = try append(.split(branchStart, start))
                }
                return start
            case .repetition(let body, let minimum, let maximum):
                var start = next
                if let maximum {
                    for _ in 0..<(maximum - minimum) {
                        let bodyStart = try compile(body, next: start)
                        start = try append(.split(bodyStart, next))
                    }
                } else {
                    let loop = try append(.split(next, next))
                    let bodyStart = try compile(body, next: loop)
                    states[loop] = .split(bodyStart, next)
                    start = loop
                }
                for _ in 0..<minimum { start = try compile(body, next: start) }
                return start
            }
        }

        /// Numbers the consuming states as positions and computes each one's ε-closure.
        func finish(source: String, start: Int) -> SegmentValidator {
            var positionOf = [Int](repeating: -1, count: states.count)
            var sets: [ScalarSet] = []
            for (index, state) in states.enumerated() {
                if case .consume(let set, _) = state {
                    positionOf[index] = sets.count
                    sets.append(set)
                }
            }
            var follow: [SegmentValidator.Step] = []
            for state in states {
                if case .consume(_, let next) = state { follow.append(closure(of: next, positionOf: positionOf)) }
            }
            return SegmentValidator(
                source: source, sets: sets, follow: follow, start: closure(of: start, positionOf: positionOf))
        }

        private func closure(of state: Int, positionOf: [Int]) -> SegmentValidator.Step {
            var step = SegmentValidator.Step()
            var visited = Set<Int>()
            var pending = [state]
            while let index = pending.popLast() {
                guard visited.insert(index).inserted else { continue }
                switch states[index] {
                case .consume: step.positions.insert(positionOf[index])
                case .split(let a, let b): pending.append(contentsOf: [a, b])
                case .accept: step.accepts = true
                }
            }
            return step
        }

        var positionCount: Int {
            states.reduce(0) { count, state in
                if case .consume = state { return count + 1 }
                return count
            }
        }
    }
}
