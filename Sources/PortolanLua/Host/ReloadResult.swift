import Portolan

/// What a hot reload did to the session (`PortolanHost.reload`): what the new rules left of the
/// live tree, and what their guards made of the active path when asked again.
public struct ReloadResult: Sendable, Equatable {
    /// The instructions that left what the new graph no longer has on the active path (no handler
    /// ran for them: their rules are gone), in the order they apply.
    public let left: [Instruction]
    /// Every change carrying the live state to the new rules made, in every kept stack as on the
    /// active path, as a restore reports them (`SnapshotChange`): the migrations the new rules
    /// declare, what the conservative rule dropped, what their limits cut.
    public let changes: [SnapshotChange]
    /// The guards and interceptors of the new rules, run again for the active path as
    /// `refresh()` runs them: `.success([])` when they pass (or the app has none), the route a
    /// redirect made, or the failure (`denied`) when one refuses the path.
    public let refresh: RouteResult

    public init(left: [Instruction], changes: [SnapshotChange] = [], refresh: RouteResult) {
        self.left = left
        self.changes = changes
        self.refresh = refresh
    }
}
