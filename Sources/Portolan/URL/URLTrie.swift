/// The trie behind ``URLMatcher``: one node per distinct pattern prefix, edges by segment kind.
///
/// Not generic, so it is compiled (and optimised) once, in this module; it keeps the patterns,
/// the matcher keeps the values beside it, and the trie hands back routes (``MatchedRoute``).
/// Each path a pattern stands for (``RoutePattern/Alternative``) is a *target* of the trie; a
/// target knows its route and which of the route's paths it is.
///
/// A node is reached by exactly one chain of edges, so a match visits each node at most once even
/// when it backtracks: the worst case is the size of the trie, never exponential.
struct URLTrie: Sendable {
    /// The targets of the patterns that end at a node, by what they ask of a final slash.
    struct Terminal: Sendable {
        var ignoringSlash: Int32 = -1
        var withSlash: Int32 = -1
        var withoutSlash: Int32 = -1

        func target(trailingSlash: Bool) -> Int32 {
            let strict = trailingSlash ? withSlash : withoutSlash
            return strict >= 0 ? strict : ignoringSlash
        }

        /// The target already there that a new one asking `slash` would share URLs with, or -1.
        func conflict(with slash: TrailingSlash) -> Int32 {
            switch slash {
            case .ignored: return [ignoringSlash, withSlash, withoutSlash].first { $0 >= 0 } ?? -1
            case .required: return ignoringSlash >= 0 ? ignoringSlash : withSlash
            case .forbidden: return ignoringSlash >= 0 ? ignoringSlash : withoutSlash
            }
        }

        mutating func set(_ target: Int32, for slash: TrailingSlash) {
            switch slash {
            case .ignored: ignoringSlash = target
            case .required: withSlash = target
            case .forbidden: withoutSlash = target
            }
        }

        var all: [Int32] { [ignoringSlash, withSlash, withoutSlash].filter { $0 >= 0 } }
    }

    struct Node: Sendable {
        /// Constant edges of case-sensitive routes, keyed by the segment.
        var constants: [String: Int32] = [:]
        /// Constant edges of routes that ignore case, keyed by the segment lowercased.
        var foldedConstants: [String: Int32] = [:]
        /// Typed, validated and composite edges; pairwise disjoint, so at most one accepts a segment.
        var checked: [(check: SegmentCheck, child: Int32)] = []
        var parameter: Int32 = -1
        var anySegment: Int32 = -1
        var terminal = Terminal()
        /// The multi-segment parts that start here; pairwise disjoint, tried last.
        var rests: [RestEdge] = []
    }

    /// The app's defaults, for patterns whose ``RouteOptions`` leave them open.
    let caseInsensitive: Bool
    let significantTrailingSlash: Bool
    /// Every registered pattern, by route.
    private(set) var patterns: [RoutePattern] = []
    /// Every target: its route and which of the route's paths it is.
    private(set) var targets: [(route: Int32, alternative: Int32)] = []
    private(set) var nodes: [Node] = [Node()]
    /// The paths made only of constants, by a hash of their path (an index of this trie).
    private var constantPaths: ConstantPaths
    /// Roots of patterns that name a scheme and host: scheme → host → root node.
    private(set) var hostRoots: [String: [String: Int32]] = [:]
    static let genericRoot: Int32 = 0

    init(caseInsensitive: Bool, significantTrailingSlash: Bool = false) {
        self.caseInsensitive = caseInsensitive
        self.significantTrailingSlash = significantTrailingSlash
        constantPaths = ConstantPaths(caseInsensitive: caseInsensitive)
    }

    /// Whether `pattern`'s constants ignore case.
    func foldsCase(_ pattern: RoutePattern) -> Bool {
        pattern.options.caseInsensitive ?? caseInsensitive
    }

    /// What `alternative` of `pattern` asks of a URL's final slash.
    func slash(of alternative: RoutePattern.Alternative, in pattern: RoutePattern) -> TrailingSlash {
        guard pattern.options.significantTrailingSlash ?? significantTrailingSlash, !alternative.segments.isEmpty else {
            return .ignored
        }
        return alternative.endsWithSlash ? .required : .forbidden
    }

    // MARK: Inserting

    /// Adds `pattern` as the next route, or throws when it would rank equally with a registered
    /// pattern for some URL, or two of its own paths would. Every check runs before anything
    /// changes, so a refused pattern leaves the trie as it was.
    mutating func insert(_ pattern: RoutePattern) throws(URLRoutingError) {
        var own = URLTrie(caseInsensitive: caseInsensitive, significantTrailingSlash: significantTrailingSlash)
        for (index, alternative) in pattern.alternatives.enumerated() {
            if let (target, _) = try own.conflict(with: alternative, of: pattern) {
                let first = pattern.alternatives[Int(own.targets[Int(target)].alternative)]
                throw .ambiguousAlternatives(pattern: pattern.text, first: Self.spelling(first), second: Self.spelling(alternative))
            }
            try own.add(alternative, of: pattern, route: 0, alternativeIndex: index)
        }
        for alternative in pattern.alternatives {
            if let (target, reason) = try conflict(with: alternative, of: pattern) {
                throw .ambiguous(existing: patternText(of: target), new: pattern.text, reason: reason)
            }
        }
        let route = Int32(truncatingIfNeeded: patterns.count)
        patterns.append(pattern)
        for (index, alternative) in pattern.alternatives.enumerated() {
            try add(alternative, of: pattern, route: route, alternativeIndex: index)
        }
    }

    /// A path as a pattern would write it alone.
    static func spelling(_ alternative: RoutePattern.Alternative) -> String {
        "/" + alternative.segments.map(\.description).joined(separator: "/") + (alternative.endsWithSlash ? "/" : "")
    }

    private mutating func add(
        _ alternative: RoutePattern.Alternative, of pattern: RoutePattern, route: Int32, alternativeIndex: Int
    ) throws(URLRoutingError) {
        let target = Int32(truncatingIfNeeded: targets.count)
        targets.append((route, Int32(truncatingIfNeeded: alternativeIndex)))
        let folds = foldsCase(pattern)
        let slash = slash(of: alternative, in: pattern)
        var constants: [String] = []
        var node = root(for: pattern)
        for (index, segment) in alternative.segments.enumerated() {
            switch segment {
            case .constant(let text):
                let key = folds ? text.lowercased() : text
                constants.append(key)
                node = child(of: node, constant: key, folded: folds)
            case .typed, .validated, .composite:
                guard let check = try SegmentCheck(
                    segment, validator: alternative.validators[index], foldingCase: folds, pattern: pattern.text)
                else { continue }
                node = checkedChild(of: node, check: check)
            case .parameter:
                if nodes[Int(node)].parameter < 0 { nodes[Int(node)].parameter = appendNode() }
                node = nodes[Int(node)].parameter
            case .anySegment:
                if nodes[Int(node)].anySegment < 0 { nodes[Int(node)].anySegment = appendNode() }
                node = nodes[Int(node)].anySegment
            case .rest(_, let atLeastOne):
                let suffix = try Self.suffix(of: alternative, after: index, folds: folds, pattern: pattern.text)
                nodes[Int(node)].rests.append(RestEdge(atLeastOne: atLeastOne, suffix: suffix, slash: slash, target: target))
                return
            }
        }
        nodes[Int(node)].terminal.set(target, for: slash)
        // The index answers for a URL only what the walk would: so it holds only paths whose
        // case and slash are the trie's own reading.
        if pattern.host == nil && constants.count == alternative.segments.count && folds == caseInsensitive && slash == .ignored {
            constantPaths.insert(constants, route: target)
        }
    }

    /// What follows the multi-segment part at `index`.
    static func suffix(
        of alternative: RoutePattern.Alternative, after index: Int, folds: Bool, pattern: String
    ) throws(URLRoutingError) -> [RestEdge.SuffixPart] {
        var parts: [RestEdge.SuffixPart] = []
        for position in alternative.segments.indices.dropFirst(index + 1) {
            let segment = alternative.segments[position]
            if case .constant(let text) = segment {
                parts.append(.constant(folds ? text.lowercased() : text, foldingCase: folds))
            } else if let check = try SegmentCheck(
                segment, validator: alternative.validators[position], foldingCase: folds, pattern: pattern)
            {
                parts.append(.check(check))
            } else {
                parts.append(.any)
            }
        }
        return parts
    }

    private mutating func root(for pattern: RoutePattern) -> Int32 {
        guard let scheme = pattern.scheme, let host = pattern.host else { return Self.genericRoot }
        if let root = hostRoots[scheme]?[host] { return root }
        let root = appendNode()
        hostRoots[scheme, default: [:]][host] = root
        return root
    }

    private mutating func appendNode() -> Int32 {
        nodes.append(Node())
        return Int32(nodes.count - 1)
    }

    private mutating func child(of node: Int32, constant key: String, folded: Bool) -> Int32 {
        if let child = folded ? nodes[Int(node)].foldedConstants[key] : nodes[Int(node)].constants[key] { return child }
        let child = appendNode()
        if folded {
            nodes[Int(node)].foldedConstants[key] = child
        } else {
            nodes[Int(node)].constants[key] = child
        }
        return child
    }

    /// The child along `check`, created if new (``conflict(with:of:)`` has made sure
    /// it is disjoint from the other checks at this node).
    private mutating func checkedChild(of node: Int32, check: SegmentCheck) -> Int32 {
        let key = check.key
        for edge in nodes[Int(node)].checked where edge.check.key == key { return edge.child }
        let child = appendNode()
        nodes[Int(node)].checked.append((check, child))
        return child
    }

    /// A target registered at or below `node` (every edge leads to one, since edges are only made
    /// by insertions that succeeded past them).
    func anyTarget(under node: Int32) -> Int32? {
        var pending = [node]
        while let index = pending.popLast() {
            let current = nodes[Int(index)]
            if let target = current.terminal.all.first { return target }
            if let rest = current.rests.first { return rest.target }
            pending.append(contentsOf: current.constants.values)
            pending.append(contentsOf: current.foldedConstants.values)
            pending.append(contentsOf: current.checked.map(\.child))
            if current.parameter >= 0 { pending.append(current.parameter) }
            if current.anySegment >= 0 { pending.append(current.anySegment) }
        }
        return nil
    }

    /// The pattern text of `target`'s route, for an error naming it.
    func patternText(of target: Int32) -> String {
        patterns[Int(targets[Int(target)].route)].text
    }

    // MARK: Matching

    /// The route of `path`, a plain path whose hash is `hash`, when it is a pattern of constants
    /// alone (the walk would find the same).
    func constantRoute(hash: UInt64, path: UnsafeBufferPointer<UInt8>) -> Int32? {
        constantPaths.route(hash: hash, path: path).map { targets[Int($0)].route }
    }

    /// The most specific route matching `url`, with its parameters.
    func match(_ url: ParsedURL) -> MatchedRoute? {
        guard let (target, start) = find(url) else { return nil }
        let (route, alternative) = targets[Int(target)]
        let pattern = patterns[Int(route)]
        return MatchedRoute(
            route: route, alternative: pattern.alternatives[Int(alternative)], foldingCase: foldsCase(pattern), url: url, start: start)
    }

    /// The most specific target matching `url`: patterns naming the URL's scheme and host first
    /// (against its path), then patterns without a host (against its routing segments).
    /// Returns the target and where in `url.routingSegments` its pattern's first segment lies.
    private func find(_ url: ParsedURL) -> (target: Int32, start: Int)? {
        let segments = url.routingSegments
        return nodes.withUnsafeBufferPointer { nodes in
            let walker = Walker(nodes: nodes, segments: segments, trailingSlash: url.hasTrailingSlash)
            if !hostRoots.isEmpty, let scheme = url.scheme, let host = url.host,
                let root = hostRoots[scheme]?[host]
            {
                let target = walker.walk(root, url.pathStart)
                if target >= 0 { return (target, url.pathStart) }
            }
            let target = walker.walk(Self.genericRoot, 0)
            return target >= 0 ? (target, 0) : nil
        }
    }

    /// One URL's walk of the trie.
    private struct Walker {
        let nodes: UnsafeBufferPointer<Node>
        let segments: [String]
        let trailingSlash: Bool

        /// Depth-first, most specific edge first; returns the first target found, or -1.
        func walk(_ node: Int32, _ index: Int) -> Int32 {
            let current = Int(node)
            if index == segments.count {
                // Out of segments: a pattern ending here beats a part that takes nothing.
                let target = nodes[current].terminal.target(trailingSlash: trailingSlash)
                if target >= 0 { return target }
                return rest(at: current, index)
            }
            let segment = segments[index]
            if !nodes[current].constants.isEmpty, let child = nodes[current].constants[segment] {
                let target = walk(child, index + 1)
                if target >= 0 { return target }
            }
            if !nodes[current].foldedConstants.isEmpty, let child = nodes[current].foldedConstants[segment.lowercased()] {
                let target = walk(child, index + 1)
                if target >= 0 { return target }
            }
            for edge in nodes[current].checked where edge.check.accepts(segment) {
                let target = walk(edge.child, index + 1)
                if target >= 0 { return target }
                break  // checks at a node are disjoint: no other one accepts this segment
            }
            let parameter = nodes[current].parameter
            if parameter >= 0 {
                let target = walk(parameter, index + 1)
                if target >= 0 { return target }
            }
            let anySegment = nodes[current].anySegment
            if anySegment >= 0 {
                let target = walk(anySegment, index + 1)
                if target >= 0 { return target }
            }
            return rest(at: current, index)
        }

        private func rest(at node: Int, _ index: Int) -> Int32 {
            for edge in nodes[node].rests where edge.matches(segments, from: index, trailingSlash: trailingSlash) {
                return edge.target
            }
            return -1
        }
    }
}
