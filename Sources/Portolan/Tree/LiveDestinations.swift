/// Destinations said relative to the live tree — a push onto the active stack, a live copy of a
/// node — as the paths from the root they name now.
extension RoutingTree {
    /// The path `destination` names against this tree: a push as its launch mode places it, a live
    /// copy where it is; `unreachable` when no such copy is live. Any other destination is returned
    /// as it is.
    public func resolve(_ destination: Destination) throws(RouteFailure) -> Destination {
        switch destination {
        case .path, .anywhere:
            return destination
        case .push(let entry, let launch):
            return .path(pushPath(entry, launch: launch ?? graph[entry.id]?.launch ?? .push))
        case .live(let id, let context, let occurrence):
            guard let path = livePath(to: id, context: context, occurrence: occurrence) else {
                let which = Entry(id, context: context)
                throw RouteFailure(.unreachable, "no copy #\(occurrence) of '\(Excerpt.of(which.description))' is live")
            }
            return .path(path)
        }
    }

    /// The active path after pushing `entry` with `launch` (`LaunchMode`). The path is not checked
    /// against the graph here: the planner validates it as any other.
    func pushPath(_ entry: Entry, launch: LaunchMode) -> [Entry] {
        let top = activePath.count - 1
        // The top may be replaced only when it is a screen of its own: not the root, not managed.
        let topIsOwnScreen = top > 0 && !isManaged(atDepth: top)
        switch launch {
        case .push:
            break
        case .singleTop:
            if topIsOwnScreen, activePath[top].id == entry.id {
                return Array(activePath[..<top]) + [entry]
            }
        case .clearTop:
            if let depth = stackDepths.last(where: { activePath[$0] == entry }) {
                return Array(activePath[...depth])
            }
        case .replace:
            if topIsOwnScreen {
                return Array(activePath[..<top]) + [entry]
            }
        }
        return activePath + [entry]
    }

    /// The depths of the active stack: the nodes above the deepest managed node (or the root).
    private var stackDepths: Range<Int> {
        var base = activePath.count - 1
        while base > 0, !isManaged(atDepth: base) {
            base -= 1
        }
        return (base + 1)..<activePath.count
    }
}
