/// What a push does when the screen it pushes is already on the stack: Android's launch modes, as
/// Jetpack Navigation spells them, and the stack actions of Decompose and React Navigation.
///
/// A push (`Destination.push`) enters a screen on top of the active leaf. The mode comes from the
/// push itself, else from the pushed node's declaration (`NodeSpec.launch`), else `push`, which is
/// what UIKit's `pushViewController`, go_router's `push` and Jetpack's `navigate` do.
///
/// Each mode only names the path the push leads to; the planner then leaves what is no longer on
/// it and enters what is new, so an entry that stays where it is (same id and context at the same
/// place) is neither left nor entered. An entry that is found and "takes the new context" is
/// untouched when the context is the same; when it differs, it is updated in place if its node
/// declares a key and the key is the same (`NodeSpec.key`: the same screen), and otherwise left
/// and entered again. "This very entry" below is the same screen: the equal entry, or for a
/// keyed node the entry with the same key.
///
/// The last three modes edit the stack below its top as well (`editsStack`): the path they name
/// is reached as `Destination.reset` reaches one, so the screens that stay are kept, moved to the
/// top if need be, and never left and entered again.
public enum LaunchMode: String, Sendable, CaseIterable {
    /// Push another copy, whatever is on the stack already.
    case push
    /// Nothing when the top screen is this very entry (for a keyed node, it takes the new
    /// context); otherwise push, even when an equal entry stands lower down (Decompose's
    /// `pushNew`: a guard against double taps).
    case pushNew = "push_new"
    /// When the top screen is the same node, it takes the new context; otherwise push.
    case singleTop = "single_top"
    /// When this very entry is on the stack, go back to it, leaving what is above it (for a keyed
    /// node, it takes the new context); otherwise push.
    case clearTop = "clear_top"
    /// Go back to the nearest entry of this node on the stack, which takes the new context; when
    /// there is none, replace the top screen (React Navigation 7's `popTo`, Expo's `dismissTo`).
    case popTo = "pop_to"
    /// Go back to the nearest entry of this node on the stack, which takes the new context; when
    /// there is none, push (React Navigation's `navigate` with `pop: true`, and its version 6
    /// `navigate`).
    case popToOrPush = "pop_to_or_push"
    /// At most one entry of this node: go back to the lowest one on the stack, leaving everything
    /// above it, and it takes the new context; when there is none, push (Android's `singleTask`).
    case singleTask = "single_task"
    /// Leave the top screen and enter this one in its place; push when the top is no screen of its
    /// own (the root, or a switch node's child).
    case replace
    /// Take every entry of this node out of the stack and push this one, in one route; an entry
    /// that is the same screen is moved to the top rather than entered again (Decompose's
    /// `bringToFront`).
    case bringToFront = "bring_to_front"
    /// Move the nearest entry that is the same screen to the top, where it takes the new context:
    /// A, B, C, D with B gives A, C, D, B. When there is none, push (Decompose's `pushToFront`,
    /// Android's `FLAG_ACTIVITY_REORDER_TO_FRONT`).
    case reorderToFront = "reorder_to_front"
    /// Take every entry that is the same screen out of the stack and push this one; entries of the
    /// node with another key stay (Expo Router's `singular`, with the node's key as its function).
    case singular

    /// Whether the mode takes screens out from below the top of the stack or moves them, so that
    /// its path is reached by an edit of the stack (`Destination.reset`).
    public var editsStack: Bool {
        switch self {
        case .bringToFront, .reorderToFront, .singular: true
        case .push, .pushNew, .singleTop, .clearTop, .popTo, .popToOrPush, .singleTask, .replace: false
        }
    }
}
