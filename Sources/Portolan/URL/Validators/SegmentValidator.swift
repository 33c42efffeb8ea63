/// A compiled `{validator}`: a small automaton that decides whether a whole path segment matches.
///
/// The syntax (``ValidatorSyntax``) is a regular-expression subset; it compiles to a position
/// automaton (every state is one character position of the pattern), simulated as a bit set of
/// live positions. A match is one pass over the segment's scalars, O(length × positions), with
/// no backtracking and no allocation, so no input can make it slow.
///
/// Two validators can be compared: ``isDisjoint(from:)`` decides exactly whether some non-empty
/// segment satisfies both, which is what the matcher's ambiguity rule needs.
struct SegmentValidator: Sendable {
    /// The validator as written (without the braces); two validators with the same source share
    /// a trie edge.
    let source: String
    /// What each position accepts.
    let sets: [ScalarSet]
    /// The positions live after each position consumed a scalar, and whether the segment may end there.
    let follow: [Step]
    /// The positions live before the first scalar.
    let start: Step

    /// A set of live positions (up to ``URLLimits/maximumValidatorPositions``) plus whether the
    /// input read so far is accepted.
    struct Step: Sendable {
        var positions = PositionSet()
        var accepts = false

        mutating func formUnion(_ other: Step) {
            positions.formUnion(other.positions)
            accepts = accepts || other.accepts
        }
    }

    /// Whether `segment`, as a whole, matches.
    func matches(_ segment: String) -> Bool {
        var current = start
        for scalar in segment.unicodeScalars {
            var next = Step()
            var live = current.positions
            while let position = live.popFirst() {
                if sets[position].contains(scalar.value) { next.formUnion(follow[position]) }
            }
            if next.positions.isEmpty && !next.accepts { return false }
            current = next
        }
        return current.accepts
    }

    /// Whether no non-empty segment matches both validators (the empty string never reaches a
    /// matcher: empty segments are dropped). Explores pairs of positions reachable by a common
    /// input, so the answer is exact, in O(positions²) time.
    func isDisjoint(from other: SegmentValidator) -> Bool {
        var seen = [Bool](repeating: false, count: sets.count * other.sets.count)
        var pending: [(Int, Int)] = []
        func visit(_ mine: PositionSet, _ theirs: PositionSet) {
            var left = mine
            while let a = left.popFirst() {
                var right = theirs
                while let b = right.popFirst() {
                    let pair = a * other.sets.count + b
                    if !seen[pair] && sets[a].intersects(other.sets[b]) {
                        seen[pair] = true
                        pending.append((a, b))
                    }
                }
            }
        }
        visit(start.positions, other.start.positions)
        while let (a, b) = pending.popLast() {
            if follow[a].accepts && other.follow[b].accepts { return false }
            visit(follow[a].positions, other.follow[b].positions)
        }
        return true
    }
}

/// A set of automaton positions, as a fixed pair of words: no allocation on the match path.
struct PositionSet: Sendable, Equatable {
    private var low: UInt64 = 0
    private var high: UInt64 = 0

    static let capacity = 128

    var isEmpty: Bool { low == 0 && high == 0 }

    mutating func insert(_ position: Int) {
        if position < 64 { low |= 1 << UInt64(position) } else { high |= 1 << UInt64(position - 64) }
    }

    mutating func formUnion(_ other: PositionSet) {
        low |= other.low
        high |= other.high
    }

    /// Removes and returns the smallest position, or `nil` when the set is empty.
    mutating func popFirst() -> Int? {
        if low != 0 {
            let position = low.trailingZeroBitCount
            low &= low - 1
            return position
        }
        if high != 0 {
            let position = high.trailingZeroBitCount
            high &= high - 1
            return position + 64
        }
        return nil
    }
}
