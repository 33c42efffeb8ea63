import Portolan

/// What a hot reload did to the session (`PortolanHost.reload`): what the new rules left of the
/// live tree, and what their guards made of the active path when asked again.
public struct ReloadResult: Sendable, Equatable {
    /// What the new rules took away, in the order it happened: each screen that goes, left
    /// bottom-up through its `leave` handler by the rules that entered it (a screen a migration
    /// renamed stays), the kept stacks' first (only their handlers run: they are off the active
    /// path), then the active path's.
    public let left: [Instruction]
    /// What the new rules brought onto the active path, through their handlers, once they were
    /// in place: the switch to the tab that replaced an active one they no longer have, then each
    /// screen past the part kept (one a migration moved there, a new tab's stack), top-down.
    /// Their guards run after.
    public let entered: [Instruction]
    /// Every change carrying the live state to the new rules made, in every kept stack as on the
    /// active path, as a restore reports them (`SnapshotChange`): the migrations the new rules
    /// declare, what the conservative rule dropped, what their limits cut.
    public let changes: [SnapshotChange]
    /// The guards and interceptors of the new rules, run again for the active path as
    /// `refresh()` runs them: `.success([])` when they pass (or the app has none), the route a
    /// redirect made, or the failure (`denied`) when one refuses the path.
    public let refresh: RouteResult

    public init(left: [Instruction], entered: [Instruction] = [], changes: [SnapshotChange] = [], refresh: RouteResult) {
        self.left = left
        self.entered = entered
        self.changes = changes
        self.refresh = refresh
    }
}
