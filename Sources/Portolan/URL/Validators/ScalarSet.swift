/// A set of Unicode scalar values, kept as sorted, disjoint, non-adjacent ranges: what one
/// position of a segment validator accepts (`a`, `[a-z0-9_-]`, `[^/]`, `.`), and a class of
/// `--filter`'s regular expressions (`LinearRegex`).
package struct ScalarSet: Hashable, Sendable {
    package private(set) var ranges: [ClosedRange<UInt32>]

    static let all = ScalarSet([0...0x10FFFF])
    package static let digits = ScalarSet([0x30...0x39])
    package static let word = ScalarSet([0x30...0x39, 0x41...0x5A, 0x5F...0x5F, 0x61...0x7A])

    /// Normalises `ranges`: sorted, overlapping and adjacent ranges merged.
    package init(_ ranges: [ClosedRange<UInt32>]) {
        var merged: [ClosedRange<UInt32>] = []
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = merged.last, range.lowerBound <= last.upperBound &+ 1 {
                merged[merged.count - 1] = last.lowerBound...max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        self.ranges = merged
    }

    init(scalar: Unicode.Scalar) {
        self.ranges = [scalar.value...scalar.value]
    }

    var isEmpty: Bool { ranges.isEmpty }

    package func contains(_ value: UInt32) -> Bool {
        // Sets are small (a handful of ranges), so a linear scan beats a binary search.
        for range in ranges {
            if value < range.lowerBound { return false }
            if value <= range.upperBound { return true }
        }
        return false
    }

    func union(_ other: ScalarSet) -> ScalarSet {
        ScalarSet(ranges + other.ranges)
    }

    /// Every scalar value not in the set.
    package func inverted() -> ScalarSet {
        var result: [ClosedRange<UInt32>] = []
        var next: UInt32 = 0
        for range in ranges {
            if range.lowerBound > next { result.append(next...(range.lowerBound - 1)) }
            next = range.upperBound &+ 1
        }
        if next <= 0x10FFFF && !(ranges.last.map { $0.upperBound >= 0x10FFFF } ?? false) {
            result.append(next...0x10FFFF)
        }
        return ScalarSet(result)
    }

    /// Whether some scalar is in both sets (a merge walk over the sorted ranges).
    func intersects(_ other: ScalarSet) -> Bool {
        var left = 0
        var right = 0
        while left < ranges.count && right < other.ranges.count {
            let a = ranges[left]
            let b = other.ranges[right]
            if a.overlaps(b) { return true }
            if a.upperBound < b.upperBound { left += 1 } else { right += 1 }
        }
        return false
    }
}
