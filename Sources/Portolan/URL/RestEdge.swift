/// A trie edge for a pattern's part that takes several segments (`**`, `:name*`, `:name+`),
/// and what follows it: `/**path/edit` is the edge at the root with the suffix `edit`.
///
/// It stays one pass: the suffix has a fixed length, so it is matched against the URL's last
/// segments, and the part takes what lies between. So the split is at the *last* `edit`
/// (`/a/edit/edit` gives `path=a/edit`), as path-to-regexp's greedy wildcard splits it.
struct RestEdge: Sendable {
    /// One segment after the multi-segment part.
    enum SuffixPart: Sendable {
        case constant(String, foldingCase: Bool)
        case check(SegmentCheck)
        /// A plain parameter or `*`: any segment.
        case any
    }

    /// Whether the part needs a segment (`:name+`); `**` and `:name*` take none as well.
    let atLeastOne: Bool
    let suffix: [SuffixPart]
    let slash: TrailingSlash
    /// The trie's target it leads to.
    let target: Int32

    /// Whether `segments[index...]` is the part followed by the suffix, for a URL that does (or
    /// does not) end with a slash.
    func matches(_ segments: [String], from index: Int, trailingSlash: Bool) -> Bool {
        let suffixStart = segments.count - suffix.count
        guard suffixStart - index >= (atLeastOne ? 1 : 0), slash.accepts(trailingSlash: trailingSlash) else { return false }
        for (offset, part) in suffix.enumerated() {
            let segment = segments[suffixStart + offset]
            switch part {
            case .constant(let text, let foldingCase):
                guard foldingCase ? segment.lowercased() == text : segment == text else { return false }
            case .check(let check):
                guard check.accepts(segment) else { return false }
            case .any:
                continue
            }
        }
        return true
    }

    /// Whether some URL could match both edges from the same node: unless their slashes differ,
    /// or two of their suffixes' segments, aligned from the end, accept no segment in common.
    func overlaps(_ other: RestEdge) -> Bool {
        guard slash.overlaps(other.slash) else { return false }
        for (mine, theirs) in zip(suffix.reversed(), other.suffix.reversed()) where Self.disjoint(mine, theirs) {
            return false
        }
        return true
    }

    private static func disjoint(_ a: SuffixPart, _ b: SuffixPart) -> Bool {
        switch (a, b) {
        case (.constant(let x, let foldX), .constant(let y, let foldY)):
            return foldX || foldY ? x.lowercased() != y.lowercased() : x != y
        case (.constant(let text, false), .check(let check)), (.check(let check), .constant(let text, false)):
            return !check.accepts(text)
        case (.check(let x), .check(let y)):
            return x.automaton.isDisjoint(from: y.automaton)
        default:
            return false
        }
    }
}
