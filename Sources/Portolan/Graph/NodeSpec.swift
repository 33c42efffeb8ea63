/// A node as an app declares it, with the nodes declared below it.
///
/// `NavigationGraph` validates a tree of these; a spec itself may be anything a script wrote.
public struct NodeSpec: Sendable, Equatable {
    public var id: NodeID
    public var kind: NodeKind
    /// A switch node's initially active child; the first child when nil.
    public var active: NodeID?
    public var children: [NodeSpec]
    /// URL route patterns that lead to this node (`/movies/:id<int>`); see `RoutePattern`.
    public var routes: [String]
    /// On a switch node: a route that switches away from a child keeps what is open inside it (as a
    /// tab bar keeps each tab's stack) instead of leaving it first.
    public var keepsStacks: Bool
    /// On a switch node: back, with nothing left to leave inside the active child, returns the
    /// switch to its previously active child (Android's bottom navigation).
    public var backThroughHistory: Bool

    public init(
        _ id: NodeID, kind: NodeKind = .screen, active: NodeID? = nil, children: [NodeSpec] = [], routes: [String] = [],
        keepsStacks: Bool = false, backThroughHistory: Bool = false
    ) {
        self.id = id
        self.kind = kind
        self.active = active
        self.children = children
        self.routes = routes
        self.keepsStacks = keepsStacks
        self.backThroughHistory = backThroughHistory
    }

    /// A switch node; `active` defaults to the first child.
    public static func `switch`(
        _ id: NodeID, active: NodeID? = nil, keepsStacks: Bool = false, _ children: [NodeSpec]
    ) -> NodeSpec {
        NodeSpec(id, kind: .switch, active: active, children: children, keepsStacks: keepsStacks)
    }

    /// A screen node.
    public static func screen(_ id: NodeID, _ children: [NodeSpec] = []) -> NodeSpec {
        NodeSpec(id, kind: .screen, children: children)
    }

    /// The same node, reached also by these URL route patterns.
    public func routed(_ patterns: String...) -> NodeSpec {
        var node = self
        node.routes += patterns
        return node
    }
}
