/// What differs between two snapshots, in the event vocabulary (`portolan snapshot diff A B`):
/// the instructions that take A's active path to B's (`leave`, `switch`, `enter`, as a route's
/// events name them), then the contexts a screen on both paths remembers, every kept stack, switch history, the pending destination, each part
/// of the app's state, the route history and the rules that differ. It reads the documents alone,
/// without rules: a node with more than one saved child is a switch node.
public enum SnapshotDiff {
    /// At most this many lines for the app's state: a state is any data, its diff is bounded.
    static let stateLines = 20

    public static func lines(from old: SnapshotDocument, to new: SnapshotDocument) -> [String] {
        var lines = pathInstructions(from: old.tree, to: new.tree).map(\.description)
        lines += rememberedContexts(from: old.tree, to: new.tree)
        lines += keptStacks(from: old.tree, to: new.tree)
        lines += switchHistories(from: old.switchHistory, to: new.switchHistory)
        if old.pending != new.pending {
            lines.append("pending: \(old.pending.map { "'\($0)'" } ?? "none") -> \(new.pending.map { "'\($0)'" } ?? "none")")
        }
        lines += state(from: old.state, to: new.state)
        if old.routes != new.routes {
            let last = { (routes: [RouteRecord]) in routes.last.map { "'\($0.requested)'" } ?? "none" }
            lines.append("history: \(old.routes.count) routes -> \(new.routes.count) routes, the last to \(last(old.routes)) -> \(last(new.routes))")
        }
        if old.rules != new.rules {
            lines.append("rules: version \(old.rules.version) -> \(new.rules.version)" + (old.rules.hash == new.rules.hash ? "" : ", files changed"))
        }
        return lines
    }

    /// Leaves of A's nodes past the common prefix (bottom-up; a switch's child is switched from,
    /// not left), then the switch and enters to B's.
    static func pathInstructions(from old: SavedNode, to new: SavedNode) -> [Instruction] {
        let a = old.activeChain, b = new.activeChain
        var common = 0
        while common < a.count, common < b.count, a[common].entry == b[common].entry { common += 1 }
        var instructions: [Instruction] = []
        var depth = a.count - 1
        while depth >= max(common, 1) {
            if a[depth - 1].children.count <= 1 { instructions.append(.leave(a[depth].entry)) }
            depth -= 1
        }
        for depth in max(common, 1)..<max(b.count, 1) {
            if b[depth - 1].children.count > 1 {
                instructions.append(.switch(b[depth - 1].entry, to: b[depth].entry))
            } else {
                instructions.append(.enter(b[depth].entry))
            }
        }
        return instructions
    }

    /// `earlier contexts of search {q=b}: search {q=a} -> (none)` for each screen both active
    /// paths hold whose remembered contexts (`Entry.earlierContexts`) differ, oldest first: no
    /// instruction says it, yet back does something else.
    static func rememberedContexts(from old: SavedNode, to new: SavedNode) -> [String] {
        zip(old.activeChain, new.activeChain).prefix { $0.entry == $1.entry }
            .filter { $0.entry.earlierContexts != $1.entry.earlierContexts }
            .map { before, after in
                let text = { (entry: Entry) in
                    entry.earlierContexts.isEmpty
                        ? "(none)" : entry.earlierContexts.map { Entry(entry.id, context: $0).description }.joined(separator: ", ")
                }
                return "earlier contexts of \(after.entry): \(text(before.entry)) -> \(text(after.entry))"
            }
    }

    /// `kept tabs > a: x > y -> x` for every kept child of a switch node both trees hold, at any
    /// depth (a tab bar inside a kept stack too), whose stack differs and which neither shows.
    static func keptStacks(from old: SavedNode, to new: SavedNode) -> [String] {
        guard old.entry == new.entry, old != new else { return [] }
        var lines: [String] = []
        let isSwitch = old.children.count > 1 || new.children.count > 1
        // Each side's children by id, looked up once each: a switch of 100,000 kept stacks, which
        // the format allows, took minutes when every id was searched for in both lists.
        let oldChildren = Self.byID(old.children), newChildren = Self.byID(new.children)
        let ids = old.children.map(\.entry.id) + new.children.map(\.entry.id).filter { oldChildren[$0] == nil }
        let shownIDs = Set([old.active.map { old.children[$0].entry.id }, new.active.map { new.children[$0].entry.id }].compactMap { $0 })
        for id in ids {
            let before = oldChildren[id], after = newChildren[id]
            let shown = shownIDs.contains(id)
            if isSwitch, !shown, before.map(stack) != after.map(stack) {
                lines.append("kept \(old.entry.id) > \(id): \(before.map(stack) ?? "(none)") -> \(after.map(stack) ?? "(none)")")
            } else if let before, let after {
                lines += keptStacks(from: before, to: after)
            }
        }
        return lines
    }

    /// `children` by id, the first of each id (a saved switch holds each child once).
    private static func byID(_ children: [SavedNode]) -> [NodeID: SavedNode] {
        Dictionary(children.map { ($0.entry.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    private static func stack(_ node: SavedNode) -> String {
        node.activeChain.map(\.entry.description).joined(separator: " > ")
    }

    /// `switch history tabs: a, b -> a` for each switch node whose history differs (oldest first).
    static func switchHistories(from old: [NodeID: [Entry]], to new: [NodeID: [Entry]]) -> [String] {
        let nodes = Set(old.keys).union(new.keys).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        let text = { (entries: [Entry]?) in
            entries.map { $0.map(\.description).joined(separator: ", ") } ?? "(none)"
        }
        return nodes.filter { old[$0] != new[$0] }.map { "switch history \($0): \(text(old[$0])) -> \(text(new[$0]))" }
    }

    /// `state.cart[2].id: 7 -> 8` for each value of the app's state that differs (objects are
    /// compared key by key, anything else whole), at most `stateLines` of them.
    static func state(from old: JSONValue, to new: JSONValue) -> [String] {
        var lines: [String] = []
        stateDifferences(old, new, path: "state", into: &lines)
        guard lines.count > stateLines else { return lines }
        return Array(lines.prefix(stateLines)) + ["state: more values differ (the first \(stateLines) are shown)"]
    }

    private static func stateDifferences(_ old: JSONValue?, _ new: JSONValue?, path: String, into lines: inout [String]) {
        guard old != new, lines.count <= stateLines else { return }
        if case .object(let a)? = old, case .object(let b)? = new {
            for key in Set(a.keys).union(b.keys).sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
                stateDifferences(a[key], b[key], path: path + "." + key, into: &lines)
            }
            return
        }
        let text = { (value: JSONValue?) in value.map { Excerpt.of(CanonicalJSON.text(of: $0)) } ?? "(none)" }
        lines.append("\(Excerpt.of(path)): \(text(old)) -> \(text(new))")
    }
}
