/// What a push does when the screen it pushes is already on the stack (Android's launch modes, as
/// Jetpack Navigation's `launchSingleTop` and `popUpTo` spell them).
///
/// A push (`Destination.push`) enters a screen on top of the active leaf. The mode comes from the
/// push itself, else from the pushed node's declaration (`NodeSpec.launch`), else `push`, which is
/// what UIKit's `pushViewController`, go_router's `push` and Jetpack's `navigate` do.
public enum LaunchMode: String, Sendable, CaseIterable {
    /// Push another copy, whatever is on the stack already.
    case push
    /// When the top screen is the same node, it takes the new context in place (left and entered
    /// again; nothing when the context is the same); otherwise push.
    case singleTop = "single_top"
    /// When this very entry (id and context) is on the stack, go back to it, leaving what is above
    /// it; otherwise push.
    case clearTop = "clear_top"
    /// Leave the top screen and enter this one in its place; push when the top is no screen of its
    /// own (the root, or a switch node's child).
    case replace
}
