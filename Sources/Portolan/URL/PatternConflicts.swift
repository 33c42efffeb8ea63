/// Why the trie refuses a pattern: a path that would rank equally with a registered one for some
/// URL, so that the matcher would have to pick one silently.
///
/// - Two paths of the same shape (names aside) end at one node and ask compatible things of a
///   final slash: `/books/:id` and `/books/:slug`; strict `/a/` and `/a` are disjoint, but either
///   beside a route that ignores the slash is not.
/// - Two checked edges (typed, validated, text and parameters) overlap at one node: decided on
///   their automata, and refused even when the patterns differ later, because the winner would
///   otherwise depend on insertion order.
/// - A constant that ignores case meets one that does not, and they match a segment in common.
/// - Two multi-segment parts start at one node and their suffixes could match the same URL
///   (``RestEdge/overlaps(_:)``).
extension URLTrie {
    /// The registered target that `alternative` of `pattern` conflicts with, and why; `nil` when none.
    func conflict(
        with alternative: RoutePattern.Alternative, of pattern: RoutePattern
    ) throws(URLRoutingError) -> (target: Int32, reason: String)? {
        var node: Int32
        if let scheme = pattern.scheme, let host = pattern.host {
            guard let root = hostRoots[scheme]?[host] else { return nil }
            node = root
        } else {
            node = Self.genericRoot
        }
        let folds = foldsCase(pattern)
        let slash = slash(of: alternative, in: pattern)
        for (index, segment) in alternative.segments.enumerated() {
            let current = nodes[Int(node)]
            var next: Int32 = -1
            switch segment {
            case .constant(let text):
                if let found = caseConflict(at: current, constant: text, folds: folds, segment: index + 1) { return found }
                next = (folds ? current.foldedConstants[text.lowercased()] : current.constants[text]) ?? -1
            case .typed, .validated, .composite:
                guard let check = try SegmentCheck(
                    segment, validator: alternative.validators[index], foldingCase: folds, pattern: pattern.text)
                else { return nil }
                for edge in current.checked {
                    if edge.check.key == check.key {
                        next = edge.child
                    } else if !check.automaton.isDisjoint(from: edge.check.automaton), let existing = anyTarget(under: edge.child) {
                        return (existing, "at segment \(index + 1), '\(edge.check.key)' and '\(check.key)' both accept some segments")
                    }
                }
            case .parameter:
                next = current.parameter
            case .anySegment:
                next = current.anySegment
            case .rest(_, let atLeastOne):
                let suffix = try Self.suffix(of: alternative, after: index, folds: folds, pattern: pattern.text)
                let edge = RestEdge(atLeastOne: atLeastOne, suffix: suffix, slash: slash, target: -1)
                guard let other = current.rests.first(where: { $0.overlaps(edge) }) else { return nil }
                return (other.target, "both match some URLs from segment \(index + 1) on")
            }
            guard next >= 0 else { return nil }
            node = next
        }
        let existing = nodes[Int(node)].terminal.conflict(with: slash)
        return existing >= 0 ? (existing, "both match the same URLs") : nil
    }

    /// A constant of the other case reading at `node` that matches a segment `text` does.
    private func caseConflict(at node: Node, constant text: String, folds: Bool, segment: Int) -> (target: Int32, reason: String)? {
        if folds {
            let key = text.lowercased()
            for (exact, child) in node.constants where exact.lowercased() == key {
                if let existing = anyTarget(under: child) {
                    return (existing, "at segment \(segment), '\(exact)' and '\(text)' (in any case) both match '\(exact)'")
                }
            }
        } else if let child = node.foldedConstants[text.lowercased()], let existing = anyTarget(under: child) {
            return (existing, "at segment \(segment), '\(text)' and the same letters in any case both match '\(text)'")
        }
        return nil
    }
}
