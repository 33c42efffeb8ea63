/// One declared node, validated, as the planner and the tree look it up.
public struct NodeDeclaration: Sendable, Equatable {
    public let id: NodeID
    public let kind: NodeKind
    /// The declaring parent; nil for the root and for nodes reachable from anywhere.
    public let parent: NodeID?
    public let children: [NodeID]
    /// A switch node's initially active child.
    public let initialActive: NodeID?
    /// Whether the node can be entered on top of any screen (Portus's dynamic destination).
    public let isAnywhere: Bool
    /// The URL route patterns that lead to the node, as declared.
    public let routes: [String]
    /// A switch node that keeps the stacks of the children it switches away from (`NodeSpec`).
    public let keepsStacks: Bool
    /// Where back takes a switch node when nothing is left to leave inside its active child
    /// (`NodeSpec.back`); `none` for a screen.
    public let back: TabBackBehavior
    /// Whether back returns the switch node through every child it was switched away from.
    public var backThroughHistory: Bool { back == .fullHistory }
    /// The nodes declared elsewhere that may be pushed on top of this screen (`NodeSpec.pushes`).
    public let pushes: [NodeID]
    /// The launch mode a push of this node has unless it names one (`NodeSpec.launch`).
    public let launch: LaunchMode?
    /// The context fields that make an entry of the node the screen it is (`NodeSpec.key`).
    public let key: [String]
    /// A screen back never leaves (`NodeSpec.isFloor`).
    public let isFloor: Bool
    /// Whether some screen pushes this node, so that it may stand on a path more than once.
    public internal(set) var isPushed = false

    /// Whether the node may stand on a path more than once: it is pushed, or reachable from anywhere.
    public var canRepeat: Bool { isPushed || isAnywhere }

    public func declares(child id: NodeID) -> Bool {
        children.contains(id)
    }

    /// Whether two entries of this node are the same screen: their `key` fields are equal, or,
    /// for a node without a key, the whole entries are.
    public func isSameScreen(_ entry: Entry, as other: Entry) -> Bool {
        guard entry.id == id, other.id == id else { return false }
        guard !key.isEmpty else { return entry == other }
        return key.allSatisfy { entry.context[$0] == other.context[$0] }
    }
}

/// The nodes an app has: a tree of declared nodes under one root, plus nodes reachable from anywhere.
///
/// Construction validates everything a script could get wrong, so the planner and the tree can rely
/// on it: ids are unique and non-empty, every switch has children and its `active` is one of them.
public struct NavigationGraph: Sendable, Equatable {
    public let rootID: NodeID
    public let anywhereIDs: [NodeID]
    /// The declared nodes by index (`indices` finds one by id): an array, not a dictionary keyed
    /// by id, which at 100,000 nodes held three times the nodes' size in empty buckets (issue 24).
    private var declarations: [NodeDeclaration] = []
    /// The declared nodes by index (`NodeIndex.swift`), for the hot path; derived from the
    /// declarations, so equality ignores it.
    private(set) var table: [IndexedNode] = []
    private(set) var nodeIDs: [NodeID] = []
    private(set) var childIndices: [[Int]] = []
    private(set) var indices: [NodeID: Int] = [:]
    /// For each node index, the indices of the nodes it pushes (`NodeSpec.pushes`).
    private(set) var pushIndices: [[Int]] = []
    /// Every node's route patterns, compiled into one matcher (`resolve(url:)`).
    public private(set) var urlRoutes: GraphRoutes
    /// How deep paths may grow and how many copies of one node they may hold.
    public let limits: PathLimits

    /// `caseInsensitiveRoutes` makes constant URL segments match without regard to case, and
    /// `significantTrailingSlash` a pattern's final `/` part of what it matches, for every route
    /// whose ``NodeSpec/routeOptions`` do not say otherwise; `origins` says which schemes and hosts
    /// URLs may come from; `limits` how far paths may grow.
    public init(
        root: NodeSpec, anywhere: [NodeSpec] = [], caseInsensitiveRoutes: Bool = false,
        significantTrailingSlash: Bool = false, origins: URLOrigins = .any, limits: PathLimits = .engine
    ) throws(GraphError) {
        var count = try Self.checkDepth(of: root)
        for spec in anywhere {
            count += try Self.checkDepth(of: spec)
        }
        rootID = root.id
        anywhereIDs = anywhere.map(\.id)
        self.limits = limits
        var routes = GraphRoutes.Builder(
            caseInsensitive: caseInsensitiveRoutes, significantTrailingSlash: significantTrailingSlash, origins: origins)
        urlRoutes = routes.build()
        reserve(count)
        try declare(root, isAnywhere: false, routes: &routes)
        for spec in anywhere {
            try declare(spec, isAnywhere: true, routes: &routes)
        }
        urlRoutes = routes.build()
        try resolvePushes()
        Self.completeFreshDepths(&table, children: childIndices)
    }

    /// How deep a path may go, declared or live: deeper ones are refused, so that no walk along a
    /// path can exhaust a thread's stack. Real apps are a few levels deep.
    public static let maximumDepth = 1_000

    /// Refuses a spec deeper than `maximumDepth`, walking it without recursion (it may be anything);
    /// how many nodes it holds. The walk keeps one cursor per level (the siblings' array, shared,
    /// not copied), so a node with 100,000 children costs it nothing per child.
    private static func checkDepth(of spec: NodeSpec) throws(GraphError) -> Int {
        var levels: [(siblings: [NodeSpec], next: Int)] = [([spec], 0)]
        var count = 0
        while let level = levels.last {
            guard level.next < level.siblings.count else {
                levels.removeLast()
                continue
            }
            let node = level.siblings[level.next]
            levels[levels.count - 1].next += 1
            guard levels.count <= maximumDepth else { throw .tooDeep(node.id, limit: maximumDepth) }
            count += 1
            if !node.children.isEmpty { levels.append((node.children, 0)) }
        }
        return count
    }

    /// Room for `count` nodes in every per-node table, so that none grows by doubling (at 100,000
    /// nodes, growing held the old storage and the new at once).
    private mutating func reserve(_ count: Int) {
        declarations.reserveCapacity(count)
        table.reserveCapacity(count)
        nodeIDs.reserveCapacity(count)
        childIndices.reserveCapacity(count)
        pushIndices.reserveCapacity(count)
        indices.reserveCapacity(count)
    }

    public static func == (lhs: NavigationGraph, rhs: NavigationGraph) -> Bool {
        lhs.rootID == rhs.rootID && lhs.anywhereIDs == rhs.anywhereIDs && lhs.declarations == rhs.declarations
            && lhs.urlRoutes.isCaseInsensitive == rhs.urlRoutes.isCaseInsensitive && lhs.limits == rhs.limits
    }

    /// The declared nodes from the root (or an anywhere node) down to `id`; empty for unknown ids.
    public func lineage(of id: NodeID) -> [NodeID] {
        var lineage: [NodeID] = []
        var current: NodeID? = id
        while let node = current, let declaration = self[node], lineage.count <= declarations.count {
            lineage.append(node)
            current = declaration.parent
        }
        return lineage.reversed()
    }

    public subscript(id: NodeID) -> NodeDeclaration? {
        indices[id].map { declarations[$0] }
    }

    /// Whether two entries are the same screen, as their node says (`NodeSpec.key`): equal
    /// entries, or entries of one keyed node whose key fields are equal.
    public func isSameScreen(_ entry: Entry, _ other: Entry) -> Bool {
        self[other.id]?.isSameScreen(entry, as: other) ?? (entry == other)
    }

    /// Whether two entries the planner has found unequal, `other` of the node index `node`, are
    /// still the same screen by that node's key: read in place, without hashing the id, and
    /// without comparing them again for a node that has no key.
    func sharesKey(_ entry: Entry, with other: Entry, node: Int) -> Bool {
        !declarations[node].key.isEmpty && declarations[node].isSameScreen(entry, as: other)
    }

    /// Every declared node, in declaration order (the root first).
    public var nodes: [NodeDeclaration] {
        declarations
    }

    /// Whether `child` may stand directly below `parent` on a path: a declared child, a node the
    /// parent pushes, or a node reachable from anywhere on top of a screen.
    public func allows(_ child: NodeID, below parent: NodeID) -> Bool {
        guard let parentNode = self[parent], let childNode = self[child] else { return false }
        if parentNode.declares(child: child) || parentNode.pushes.contains(child) { return true }
        return childNode.isAnywhere && parentNode.kind == .screen
    }

    /// Declares `top` and every node below it, depth first and each node's children in order (the
    /// indices are the nodes' order in the declaration), by a loop over a stack of its own: an
    /// app's depth, up to `maximumDepth`, costs no thread's stack (a recursion's frames did, and
    /// overflowed a pool thread's stack under AddressSanitizer). `isAnywhere` is `top`'s alone.
    private mutating func declare(_ top: NodeSpec, isAnywhere: Bool, routes: inout GraphRoutes.Builder) throws(GraphError) {
        var pending: [(spec: NodeSpec, parent: Int?, position: Int)] = [(top, nil, 0)]
        while let (spec, parent, position) = pending.popLast() {
            let index = try declareNode(spec, parent: parent, position: position, isAnywhere: isAnywhere && parent == nil, routes: &routes)
            if let parent { childIndices[parent].append(index) }
            pending.append(contentsOf: spec.children.enumerated().reversed().map { ($0.element, index, $0.offset) })
        }
    }

    /// Declares `spec` alone below the node of index `parent`, at `position` among its children;
    /// its index.
    private mutating func declareNode(
        _ spec: NodeSpec, parent: Int?, position: Int, isAnywhere: Bool, routes: inout GraphRoutes.Builder
    ) throws(GraphError) -> Int {
        let parentID = parent.map { nodeIDs[$0] }
        guard !spec.id.isEmpty else { throw .emptyID(parent: parentID) }
        guard indices[spec.id] == nil else { throw .duplicateID(spec.id) }
        let initialActive = try Self.initialActive(of: spec)
        for (offset, field) in spec.key.enumerated() where field.isEmpty || spec.key[..<offset].contains(field) {
            throw .invalidKey(spec.id, field: field)
        }
        declarations.append(NodeDeclaration(
            id: spec.id, kind: spec.kind, parent: parentID, children: spec.children.map(\.id),
            initialActive: initialActive, isAnywhere: isAnywhere, routes: spec.routes,
            keepsStacks: spec.kind == .switch && spec.keepsStacks,
            back: spec.kind == .switch ? spec.back : .none, pushes: spec.pushes, launch: spec.launch,
            key: spec.key, isFloor: spec.kind == .screen && spec.isFloor))
        let index = table.count
        indices[spec.id] = index
        nodeIDs.append(spec.id)
        childIndices.append([])
        pushIndices.append([])
        table.append(IndexedNode(
            kind: spec.kind, parent: parent, position: position, isAnywhere: isAnywhere,
            initialPosition: spec.children.firstIndex { $0.id == initialActive } ?? 0,
            keepsStacks: spec.kind == .switch && spec.keepsStacks, canRepeat: isAnywhere))
        for pattern in spec.routes {
            try routes.add(pattern, options: spec.routeOptions, to: spec.id)
        }
        return index
    }

    /// Checks every screen's `pushes` once all nodes are declared, and indexes them: a pushed node
    /// must be declared, and be neither the root nor a switch node's child (those are never entered
    /// on their own); only screens push.
    private mutating func resolvePushes() throws(GraphError) {
        for index in table.indices {
            let id = nodeIDs[index]
            let pushes = declarations[index].pushes
            guard !pushes.isEmpty else { continue }
            guard table[index].kind == .screen else { throw .pushOnSwitch(id) }
            for pushed in pushes {
                guard let target = indices[pushed] else { throw .unknownPush(id, pushed: pushed) }
                let parentIsSwitch = table[target].parent.map { table[$0].kind == .switch } ?? false
                guard target != 0, !parentIsSwitch else { throw .pushOfManaged(id, pushed: pushed) }
                if !pushIndices[index].contains(target) { pushIndices[index].append(target) }
                table[target].canRepeat = true
                declarations[target].isPushed = true
            }
            table[index].pushes = true
        }
    }

    private static func initialActive(of spec: NodeSpec) throws(GraphError) -> NodeID? {
        switch spec.kind {
        case .screen:
            if spec.active != nil { throw .activeOnScreen(spec.id) }
            return nil
        case .switch:
            guard let first = spec.children.first else { throw .switchWithoutChildren(spec.id) }
            guard let active = spec.active else { return first.id }
            guard spec.children.contains(where: { $0.id == active }) else {
                throw .activeNotAChild(switchNode: spec.id, active: active)
            }
            return active
        }
    }
}
