/// One node of the active path, as the tree stores it (its entry lives in `RoutingTree.activePath`).
///
/// The path is an array of these from the root to the leaf, so a change at the leaf end — the
/// only place the router changes anything — is an append or a removal, and the node at any depth
/// is one read.
struct PathNode: Sendable, Equatable {
    /// The node's index in the graph.
    let nodeIndex: Int
    /// Whether the parent manages the node (the parent is a switch node).
    let isManaged: Bool
    /// A switch node's children; nil for a screen, whose only child is the next node on the path.
    var switchState: SwitchState?

    var kind: NodeKind {
        switchState == nil ? .screen : .switch
    }
}

/// A switch node's children while it is on the active path.
///
/// The active child is the next node on the path; the others are kept here as they were left, so
/// that switching back to one (a tab) brings back whatever was open inside it.
struct SwitchState: Sendable, Equatable {
    /// The active child's position among the declared children.
    var active: Int
    /// Every declared child but the active one, in declaration order; the active one's slot is nil,
    /// so that a tree has exactly one representation (equality compares what exists).
    var parked: [LiveNode?]
}
