/// Destinations said relative to the live tree — a push onto the active stack, a live copy of a
/// node, an edit of the stack, the top screen's context — as what they name now.
extension RoutingTree {
    /// What `destination` names against this tree: a push as its launch mode places it (a path,
    /// or a `reset` for a mode that edits the stack), a live copy where it is, a removal or a
    /// replacement as the `reset` that makes it, an update of the top screen with its whole new
    /// entry; `unreachable` when no such copy or entry is live, `invalid` for a push that goes
    /// back to an undeclared node. Any other destination is returned as it is.
    public func resolve(_ destination: Destination) throws(RouteFailure) -> Destination {
        switch destination {
        case .path, .anywhere, .reset:
            return destination
        case .push(let entry, let launch, let popUpTo):
            if let popUpTo, graph[popUpTo.id] == nil {
                // A typo would otherwise be "not on the stack", and the push go on as if asked without it.
                throw RouteFailure(.invalid, "pop_up_to names '\(Excerpt.of(popUpTo.id))', which is not declared")
            }
            let mode = launch ?? graph[entry.id]?.launch ?? .push
            let path = pushPath(entry, launch: mode, popUpTo: popUpTo)
            return mode.editsStack ? .reset(path) : .path(path)
        case .live(let id, let context, let occurrence):
            guard let path = livePath(to: id, context: context, occurrence: occurrence) else {
                let which = Entry(id, context: context)
                throw RouteFailure(.unreachable, "no copy #\(occurrence) of '\(Excerpt.of(which.description))' is live")
            }
            return .path(path)
        case .update(let entry, let merging, let memory):
            // It stays an update, with a merge made whole: that the top screen's context changes in
            // place is what no path says (a path to the top in another context leaves and enters it).
            return .update(try updatedTop(entry, merging: merging, memory: memory).entry, memory: memory)
        case .remove(let entry):
            let depth = try stackDepth(of: entry, doing: "removed")
            return .reset(Array(activePath[..<depth]) + activePath[(depth + 1)...])
        case .replace(let entry, let replacement):
            var path = activePath
            path[try stackDepth(of: entry, doing: "replaced")] = replacement
            return .reset(path)
        }
    }

    /// The depth of the deepest entry of the active stack equal to `entry`, which a removal or a
    /// replacement names; `unreachable` when it is not there.
    private func stackDepth(of entry: Entry, doing change: String) throws(RouteFailure) -> Int {
        let stack = stackDepths(below: activePath.count)
        guard let depth = stack.last(where: { activePath[$0] == entry }) else {
            throw RouteFailure(.unreachable, "'\(Excerpt.of(entry.description))' is not on the active stack to be \(change)")
        }
        return depth
    }

    /// The top screen as an update (`Destination.update`) leaves it: its depth and new entry (the
    /// planner gives it the earlier contexts `memory` says). `unreachable` when the top is another
    /// node or the root, or when it is to restore a context and remembers none; `invalid` for a
    /// malformed context.
    func updatedTop(_ entry: Entry, merging: Bool, memory: ContextMemory = .keep) throws(RouteFailure) -> (depth: Int, entry: Entry) {
        let depth = activePath.count - 1
        let top = activePath[depth]
        guard depth > 0, top.id == entry.id else {
            let shown = depth > 0 ? "the top screen is '\(top)'" : "only the root is shown"
            throw RouteFailure(.unreachable, "an update of '\(Excerpt.of(entry.id))' needs it on top: \(shown)")
        }
        if memory == .restore, top.earlierContexts.isEmpty {
            throw RouteFailure(.unreachable, "'\(Excerpt.of(top.description))' remembers no earlier context to restore")
        }
        let updated = merging ? Entry(top.id, context: top.context.merging(entry.context) { $1 }) : entry
        guard updated.isWellFormed else {
            throw RouteFailure.malformed(updated)
        }
        return (depth, updated)
    }

    /// The active path after pushing `entry` with `launch` (`LaunchMode`), on what is left once
    /// `popUpTo` has gone back. The path is not checked against the graph here: the planner
    /// validates it as any other.
    func pushPath(_ entry: Entry, launch: LaunchMode, popUpTo: PopUpTo? = nil) -> [Entry] {
        let path = popUpTo.map(pathGoingBack(to:)) ?? activePath
        let top = path.count - 1
        let stack = stackDepths(below: path.count)
        // The top may be replaced only when it is a screen of its own: not the root, not managed.
        let topIsOwnScreen = stack.contains(top)
        switch launch {
        case .push:
            break
        case .pushNew:
            if topIsOwnScreen, graph.isSameScreen(path[top], entry) {
                return Array(path[..<top]) + [entry]
            }
        case .singleTop:
            if topIsOwnScreen, path[top].id == entry.id {
                return Array(path[..<top]) + [entry]
            }
        case .clearTop:
            if let depth = stack.last(where: { graph.isSameScreen(path[$0], entry) }) {
                return Array(path[..<depth]) + [entry]
            }
        case .popTo, .popToOrPush:
            if let nearest = stack.last(where: { path[$0].id == entry.id }) {
                return Array(path[..<nearest]) + [entry]
            }
            if launch == .popTo, topIsOwnScreen {
                return Array(path[..<top]) + [entry]
            }
        case .singleTask:
            if let lowest = stack.first(where: { path[$0].id == entry.id }) {
                return Array(path[..<lowest]) + [entry]
            }
        case .replace:
            if topIsOwnScreen {
                return Array(path[..<top]) + [entry]
            }
        case .bringToFront:
            return Self.path(path, without: { $0.id == entry.id }, in: stack) + [entry]
        case .reorderToFront:
            if let nearest = stack.last(where: { graph.isSameScreen(path[$0], entry) }) {
                return Array(path[..<nearest]) + path[(nearest + 1)...] + [entry]
            }
        case .singular:
            return Self.path(path, without: { graph.isSameScreen($0, entry) }, in: stack) + [entry]
        }
        return path + [entry]
    }

    /// `path` without the entries at the `stack` depths that `goes` picks; the rest in order.
    private static func path(_ path: [Entry], without goes: (Entry) -> Bool, in stack: Range<Int>) -> [Entry] {
        path.indices.filter { !stack.contains($0) || !goes(path[$0]) }.map { path[$0] }
    }

    /// The active path once a push's `popUpTo` has gone back: to the most recent entry of its node
    /// on the active stack, without it when inclusive. The stack's base (the root, or the child a
    /// switch node manages) is never left, so going back to it leaves the whole stack above it,
    /// inclusive or not. No entry of the node on the stack: the active path as it is.
    private func pathGoingBack(to popUpTo: PopUpTo) -> [Entry] {
        let stack = stackDepths(below: activePath.count)
        let base = stack.lowerBound - 1
        guard let depth = (base..<stack.upperBound).last(where: { activePath[$0].id == popUpTo.id }) else {
            return activePath
        }
        return Array(activePath[..<(popUpTo.inclusive && depth > base ? depth : depth + 1)])
    }

    /// The depths of the stack of the active path's first `count` nodes: the nodes above the
    /// deepest managed node among them (or the root).
    private func stackDepths(below count: Int) -> Range<Int> {
        var base = count - 1
        while base > 0, !isManaged(atDepth: base) {
            base -= 1
        }
        return (base + 1)..<count
    }
}
