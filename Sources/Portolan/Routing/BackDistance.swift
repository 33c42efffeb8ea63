/// How far a back goes when it leaves more than the top screen, in one route (the pop family of
/// Decompose and React Navigation: `pop(n)`, `popTo(index)`, `popWhile`).
///
/// The screens back can leave are the nodes of the active path that are neither the root nor a
/// switch node's child: a tab's root stays, as the first entry of a Decompose stack does. Asked to
/// leave more screens than there are, a back leaves them all (React Navigation's `pop(4)` on three
/// routes); asked to leave none, it is a route that changes nothing.
public enum BackDistance: Sendable {
    /// Leave the top `count` screens; `count` is at least 1.
    case screens(Int)
    /// Leave the screens above the first `count` of them: `keeping(1)` keeps the first screen
    /// pushed on a tab's root, `keeping(0)` leaves them all.
    case keeping(Int)
    /// Leave screens from the top while `predicate` holds for the top one.
    case leavingWhile(@Sendable (Entry) -> Bool)

    /// How many of `screens` (top first) to leave; nil when the distance is out of range.
    func count(of screens: [Entry]) -> Int? {
        switch self {
        case .screens(let count):
            return count >= 1 ? min(count, screens.count) : nil
        case .keeping(let count):
            return count >= 0 ? max(0, screens.count - count) : nil
        case .leavingWhile(let predicate):
            return screens.prefix(while: predicate).count
        }
    }
}

extension BackDistance: CustomStringConvertible {
    /// `2 screens`, `keeping 1`, `while a condition holds`.
    public var description: String {
        switch self {
        case .screens(let count): "\(count) screen" + (count == 1 ? "" : "s")
        case .keeping(let count): "keeping \(count)"
        case .leavingWhile: "while a condition holds"
        }
    }
}
