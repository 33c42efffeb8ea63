/// A switch node of the active path, with the children it keeps while another one is active.
///
/// The tree stores its active path as plain arrays (entries, node indices), which is what makes a
/// change at the leaf end an append or a removal. Only switch nodes hold more than the next node
/// on the path, so only they get one of these, in a stack beside the path (shallowest first).
/// Switching back to a child (a tab) brings back whatever was open inside it.
struct SwitchState: Sendable, Equatable {
    /// Where the switch node stands on the active path.
    let depth: Int
    /// The active child's position among the declared children; it is the next node on the path.
    var active: Int
    /// Every declared child but the active one, in declaration order; the active one's slot is nil,
    /// so that a tree has exactly one representation (equality compares what exists).
    var parked: [LiveNode?]
}
