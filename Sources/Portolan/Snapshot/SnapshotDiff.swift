/// What differs between two snapshots, in the event vocabulary (`portolan snapshot diff A B`):
/// the instructions that take A's active path to B's (`leave`, `switch`, `enter`, as a route's
/// events name them), then the kept stacks, histories, pending destination, state and rules that
/// differ. It reads the documents alone, without rules: a node with more than one saved child is
/// a switch node.
public enum SnapshotDiff {
    public static func lines(from old: SnapshotDocument, to new: SnapshotDocument) -> [String] {
        var lines = pathInstructions(from: old.tree, to: new.tree).map(\.description)
        lines += keptStacks(from: old.tree, to: new.tree)
        if old.switchHistory != new.switchHistory { lines.append("switch history changed") }
        if old.pending != new.pending {
            lines.append("pending: \(old.pending.map { "'\($0)'" } ?? "none") -> \(new.pending.map { "'\($0)'" } ?? "none")")
        }
        if old.routes != new.routes { lines.append("history: \(old.routes.count) routes -> \(new.routes.count) routes") }
        if old.state != new.state { lines.append("state changed") }
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

    /// `kept tabs > a: x > y -> x` for every kept child of a switch node on both active paths whose
    /// stack differs.
    static func keptStacks(from old: SavedNode, to new: SavedNode) -> [String] {
        var lines: [String] = []
        let a = old.activeChain, b = new.activeChain
        for depth in 0..<min(a.count, b.count) where a[depth].entry.id == b[depth].entry.id && a[depth].children.count > 1 {
            for child in a[depth].children {
                let other = b[depth].children.first { $0.entry.id == child.entry.id }
                let before = child.activeChain.map(\.entry.description).joined(separator: " > ")
                let after = other.map { $0.activeChain.map(\.entry.description).joined(separator: " > ") } ?? "(none)"
                let activeHere = a[depth].active.map { a[depth].children[$0].entry.id == child.entry.id } ?? false
                let activeThere = b[depth].active.map { b[depth].children[$0].entry.id == child.entry.id } ?? false
                if before != after, !activeHere, !activeThere {
                    lines.append("kept \(a[depth].entry.id) > \(child.entry.id): \(before) -> \(after)")
                }
            }
        }
        return lines
    }
}
