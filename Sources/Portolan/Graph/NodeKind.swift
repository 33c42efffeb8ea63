/// What a declared node is.
public enum NodeKind: String, Sendable, CaseIterable {
    /// Enters one child at a time on top of itself: a stack step, a modal, a detail screen.
    case screen
    /// Manages its children: they live as long as it does and exactly one is active (tabs, pages).
    case `switch`
}
