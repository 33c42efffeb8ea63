/// The trie behind ``URLMatcher``: one node per distinct pattern prefix, edges by segment kind.
///
/// Not generic, so it is compiled (and optimised) once, in this module; it keeps the patterns,
/// the matcher keeps the values beside it, and the trie hands back routes (``MatchedRoute``).
///
/// A node is reached by exactly one chain of edges, so a match visits each node at most once even
/// when it backtracks: the worst case is the size of the trie, never exponential.
struct URLTrie: Sendable {
    /// A typed or validated edge: the check a segment must pass to follow it.
    enum SegmentCheck: Sendable {
        case type(ParameterType)
        case validator(SegmentValidator)

        func accepts(_ segment: String) -> Bool {
            switch self {
            case .type(let type): return type.accepts(segment)
            case .validator(let validator): return validator.matches(segment)
            }
        }

        /// Two checks with the same key are the same edge.
        var key: String {
            switch self {
            case .type(let type): return "<\(type.rawValue)>"
            case .validator(let validator): return "{\(validator.source)}"
            }
        }

        var automaton: SegmentValidator {
            switch self {
            case .type(let type): return type.validator
            case .validator(let validator): return validator
            }
        }
    }

    struct Node: Sendable {
        /// Constant edges, keyed by the segment (lowercased when the trie is case-insensitive).
        var constants: [String: Int32] = [:]
        /// Typed and validated edges; pairwise disjoint, so at most one accepts a segment.
        var checked: [(check: SegmentCheck, child: Int32)] = []
        var parameter: Int32 = -1
        var anySegment: Int32 = -1
        /// The route whose pattern ends here, or -1.
        var route: Int32 = -1
        /// The route whose pattern ends with `**` here, or -1.
        var rest: Int32 = -1
    }

    let caseInsensitive: Bool
    /// Every registered pattern, by route.
    private(set) var patterns: [RoutePattern] = []
    private(set) var nodes: [Node] = [Node()]
    /// The patterns made only of constants, by a hash of their path (an index of this trie).
    private var constantPaths: ConstantPaths
    /// Roots of patterns that name a scheme and host: scheme → host → root node.
    private(set) var hostRoots: [String: [String: Int32]] = [:]
    static let genericRoot: Int32 = 0

    init(caseInsensitive: Bool) {
        self.caseInsensitive = caseInsensitive
        constantPaths = ConstantPaths(caseInsensitive: caseInsensitive)
    }

    // MARK: Inserting

    /// Adds `pattern` as the next route, or throws when it would rank equally with a registered
    /// pattern for some URL. The check runs before anything changes, so a refused pattern leaves
    /// the trie as it was.
    mutating func insert(_ pattern: RoutePattern) throws(URLRoutingError) {
        try checkAmbiguity(pattern)
        let route = Int32(truncatingIfNeeded: patterns.count)
        patterns.append(pattern)
        var constants: [String] = []
        var node = root(for: pattern)
        for (index, segment) in pattern.segments.enumerated() {
            switch segment {
            case .constant(let text):
                let key = caseInsensitive ? text.lowercased() : text
                constants.append(key)
                node = child(of: node, constant: key)
            case .typed(_, let type):
                node = checkedChild(of: node, check: .type(type))
            case .validated:
                guard let validator = pattern.validators[index] else { continue }
                node = checkedChild(of: node, check: .validator(validator))
            case .parameter:
                if nodes[Int(node)].parameter < 0 { nodes[Int(node)].parameter = appendNode() }
                node = nodes[Int(node)].parameter
            case .anySegment:
                if nodes[Int(node)].anySegment < 0 { nodes[Int(node)].anySegment = appendNode() }
                node = nodes[Int(node)].anySegment
            case .rest:
                nodes[Int(node)].rest = route
                return
            }
        }
        nodes[Int(node)].route = route
        if pattern.host == nil && constants.count == pattern.segments.count {
            constantPaths.insert(constants, route: route)
        }
    }

    /// Follows `pattern` through the existing trie without changing it, and throws at the first
    /// conflict: a route already ending where it ends, or a typed or validated edge that overlaps
    /// its own at the same node.
    private func checkAmbiguity(_ pattern: RoutePattern) throws(URLRoutingError) {
        var node: Int32
        if let scheme = pattern.scheme, let host = pattern.host {
            guard let root = hostRoots[scheme]?[host] else { return }
            node = root
        } else {
            node = Self.genericRoot
        }
        func conflict(_ existing: Int32, _ reason: String) -> URLRoutingError {
            .ambiguous(existing: patterns[Int(existing)].text, new: pattern.text, reason: reason)
        }
        for (index, segment) in pattern.segments.enumerated() {
            let current = nodes[Int(node)]
            var next: Int32 = -1
            switch segment {
            case .constant(let text):
                next = current.constants[caseInsensitive ? text.lowercased() : text] ?? -1
            case .typed, .validated:
                let check: SegmentCheck
                if case .typed(_, let type) = segment {
                    check = .type(type)
                } else if let validator = pattern.validators[index] {
                    check = .validator(validator)
                } else {
                    return
                }
                for edge in current.checked {
                    if edge.check.key == check.key {
                        next = edge.child
                    } else if !check.automaton.isDisjoint(from: edge.check.automaton), let existing = anyRoute(under: edge.child) {
                        throw conflict(
                            existing,
                            "at segment \(index + 1), '\(edge.check.key)' and '\(check.key)' both accept some segments")
                    }
                }
            case .parameter:
                next = current.parameter
            case .anySegment:
                next = current.anySegment
            case .rest:
                if current.rest >= 0 { throw conflict(current.rest, "both match the same URLs") }
                return
            }
            guard next >= 0 else { return }
            node = next
        }
        let existing = nodes[Int(node)].route
        if existing >= 0 { throw conflict(existing, "both match the same URLs") }
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

    private mutating func child(of node: Int32, constant key: String) -> Int32 {
        if let child = nodes[Int(node)].constants[key] { return child }
        let child = appendNode()
        nodes[Int(node)].constants[key] = child
        return child
    }

    /// The child along `check`, created if new (``checkAmbiguity(_:)`` has made sure
    /// it is disjoint from the other checks at this node).
    private mutating func checkedChild(of node: Int32, check: SegmentCheck) -> Int32 {
        let key = check.key
        for edge in nodes[Int(node)].checked where edge.check.key == key { return edge.child }
        let child = appendNode()
        nodes[Int(node)].checked.append((check, child))
        return child
    }

    /// A route registered at or below `node` (every edge leads to one, since edges are only made
    /// by insertions that succeeded past them).
    private func anyRoute(under node: Int32) -> Int32? {
        var pending = [node]
        while let index = pending.popLast() {
            let current = nodes[Int(index)]
            if current.route >= 0 { return current.route }
            if current.rest >= 0 { return current.rest }
            pending.append(contentsOf: current.constants.values)
            pending.append(contentsOf: current.checked.map(\.child))
            if current.parameter >= 0 { pending.append(current.parameter) }
            if current.anySegment >= 0 { pending.append(current.anySegment) }
        }
        return nil
    }

    // MARK: Matching

    /// The route of `path`, a plain path whose hash is `hash`, when it is a pattern of constants
    /// alone (the walk would find the same).
    func constantRoute(hash: UInt64, path: UnsafeBufferPointer<UInt8>) -> Int32? {
        constantPaths.route(hash: hash, path: path)
    }

    /// The most specific route matching `url`, with its parameters.
    func match(_ url: ParsedURL) -> MatchedRoute? {
        guard let (route, start) = find(url) else { return nil }
        return MatchedRoute(route: route, pattern: patterns[Int(route)], url: url, start: start)
    }

    /// The most specific route matching `url`: patterns naming the URL's scheme and host first
    /// (against its path), then patterns without a host (against its routing segments).
    /// Returns the route and where in `url.routingSegments` its pattern's first segment lies.
    private func find(_ url: ParsedURL) -> (route: Int32, start: Int)? {
        let segments = url.routingSegments
        return nodes.withUnsafeBufferPointer { nodes in
            if !hostRoots.isEmpty, let scheme = url.scheme, let host = url.host,
                let root = hostRoots[scheme]?[host]
            {
                let route = walk(nodes, root, segments, url.pathStart)
                if route >= 0 { return (route, url.pathStart) }
            }
            let route = walk(nodes, Self.genericRoot, segments, 0)
            return route >= 0 ? (route, 0) : nil
        }
    }

    /// Depth-first, most specific edge first; returns the first route found, or -1.
    private func walk(
        _ nodes: UnsafeBufferPointer<Node>, _ node: Int32, _ segments: [String], _ index: Int
    ) -> Int32 {
        let current = Int(node)
        guard index < segments.count else {
            // Out of segments: a pattern ending here beats `**` matching nothing.
            return nodes[current].route >= 0 ? nodes[current].route : nodes[current].rest
        }
        let segment = segments[index]
        if !nodes[current].constants.isEmpty,
            let child = nodes[current].constants[caseInsensitive ? segment.lowercased() : segment]
        {
            let route = walk(nodes, child, segments, index + 1)
            if route >= 0 { return route }
        }
        for edge in nodes[current].checked where edge.check.accepts(segment) {
            let route = walk(nodes, edge.child, segments, index + 1)
            if route >= 0 { return route }
            break  // checks at a node are disjoint: no other one accepts this segment
        }
        let parameter = nodes[current].parameter
        if parameter >= 0 {
            let route = walk(nodes, parameter, segments, index + 1)
            if route >= 0 { return route }
        }
        let anySegment = nodes[current].anySegment
        if anySegment >= 0 {
            let route = walk(nodes, anySegment, segments, index + 1)
            if route >= 0 { return route }
        }
        return nodes[current].rest
    }
}
