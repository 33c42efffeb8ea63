/// A push that first goes back (Jetpack Navigation's `popUpTo`): to the most recent entry of `id`
/// on the active stack, leaving what is above it, and that entry too when `inclusive`. Then the
/// push is placed as its launch mode says, on what is left, in the same route. When no entry of
/// `id` is on the stack, nothing is left and the push goes on as it would without it, as Jetpack
/// does.
///
/// Circular navigation is the use: from `A, B, C`, pushing `A` with `PopUpTo("A", inclusive: true)`
/// gives `A` again instead of `A, B, C, A`.
public struct PopUpTo: Hashable, Sendable {
    public var id: NodeID
    public var inclusive: Bool

    public init(_ id: NodeID, inclusive: Bool = false) {
        self.id = id
        self.inclusive = inclusive
    }
}

extension PopUpTo: CustomStringConvertible {
    /// `pop_up_to home`, `pop_up_to home inclusive`.
    public var description: String {
        "pop_up_to \(id)" + (inclusive ? " inclusive" : "")
    }
}
