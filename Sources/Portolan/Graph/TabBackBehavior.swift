/// Where `back` takes a switch node (a tab bar) when nothing is left to leave inside its active
/// child: React Navigation's `backBehavior`, by the same names. A switch node without one does not
/// go back through its children (`none`): back goes on to whatever holds it.
///
/// Tabs a, b, c, d declared in that order, with b initial, after the taps a → c → d → c → b:
///
/// | behaviour | back goes to |
/// |---|---|
/// | `first` | a, then nothing |
/// | `initial` | nothing: b is the initial tab (from c, b, then nothing) |
/// | `order` | a, the tab declared before b, then nothing |
/// | `history` | c, then d, then a: each tab once, most recently left first |
/// | `fullHistory` | c, d, c, a, then b: every switch away, newest first |
/// | `none` | nothing |
public enum TabBackBehavior: String, Sendable, CaseIterable {
    /// Back returns to the first child, unless it is active.
    case first
    /// Back returns to the initially active child (`NodeSpec.active`), unless it is active.
    case initial
    /// Back returns to the child declared before the active one.
    case order
    /// Back returns to the child left most recently; each child stands in the history once.
    case history
    /// Back returns to the child left most recently, every switch away remembered, repeats and all.
    case fullHistory = "full_history"
    /// Back does not switch children.
    case none

    /// Whether the switch node remembers the children it switched away from (`SwitchHistory`).
    public var keepsHistory: Bool { self == .history || self == .fullHistory }
}
