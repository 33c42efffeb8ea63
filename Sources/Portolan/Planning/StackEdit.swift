/// A route to a path reached by editing the top stack (`Destination.reset`, and the launch modes
/// that edit it): the screens the live path and the destination both hold are kept, and only the
/// others are removed, inserted or moved around them.
///
/// Above the stem the two paths share, the kept screens are a longest common subsequence of the
/// live screens and the destination's, "the same screen" by each node's key (`NodeSpec.key`); a
/// screen both hold out of that order is moved rather than left and entered again. The plan is,
/// in order:
/// 1. what goes, from the top down: the top screen is left, one below it is removed;
/// 2. each screen that stays in another context, updated in place;
/// 3. from the bottom up, each destination screen that is not a kept one in order is moved or
///    inserted directly under the nearest kept one above it, and what stands above the last kept
///    screen is entered.
///
/// Each instruction is applied to a copy of the tree as it is planned, so the tree's own checks
/// (`TopStackChanges`: the graph allows every pair that comes to stand together, the limits hold)
/// decide whether the edit exists. Where it does not, or where a path holds one entry twice above
/// the stem (so that an instruction's entry would not say which copy it means), there is no edit and the
/// route leaves and enters as a path route does. Applying each step to a copy of the tree costs
/// the stack's depth per instruction, where a path route plans each in O(1) on a simulated path;
/// only the routes that ask for an edit pay it.
struct StackEdit {
    /// Where a live screen that stays goes: the index of its destination entry, and whether it
    /// keeps its order among those that stay (else it is moved).
    private typealias Survivor = (to: Int, inOrder: Bool)

    private(set) var instructions: [Instruction] = []
    private(set) var steps: [PlannedStep] = []
    private var tree: RoutingTree

    /// The edit that turns the tree's active path into `entries` (validated: a path of the graph
    /// from the root), or nil when there is none.
    init?(from tree: RoutingTree, to entries: [Entry]) {
        self.tree = tree
        let live = tree.activePath
        var stem = 0
        while stem < min(live.count, entries.count), live[stem] == entries[stem] { stem += 1 }
        if stem == live.count, stem == entries.count { return }
        guard tree.isTopStackPosition(stem), (stem..<entries.count).allSatisfy({ tree.graph[entries[$0].id]?.kind == .screen })
        else { return nil }
        let old = Array(live[stem...])
        let new = Array(entries[stem...])
        guard !Self.holdsTwice(old), !Self.holdsTwice(new) else { return nil }
        let survivors = Self.survivors(old, new, in: tree.graph)
        guard removeTheRest(old, survivors: survivors), updateSurvivors(old, new, survivors: survivors),
            place(new, survivors: survivors),
            self.tree.activePath == entries
        else { return nil }
    }

    /// Whether two of `screens` are equal entries, which no instruction could tell apart.
    private static func holdsTwice(_ screens: [Entry]) -> Bool {
        Set(screens).count < screens.count
    }

    /// For each live screen above the stem, the destination screen it stays as (nil: it goes),
    /// and whether it keeps its order: the longest common subsequence keeps its order, and any
    /// other screen both hold is moved.
    private static func survivors(_ old: [Entry], _ new: [Entry], in graph: NavigationGraph) -> [Survivor?] {
        // lengths[i][j]: the longest common subsequence of old[i...] and new[j...].
        var lengths = Array(repeating: Array(repeating: 0, count: new.count + 1), count: old.count + 1)
        for i in old.indices.reversed() {
            for j in new.indices.reversed() {
                lengths[i][j] = graph.isSameScreen(old[i], new[j])
                    ? lengths[i + 1][j + 1] + 1 : max(lengths[i + 1][j], lengths[i][j + 1])
            }
        }
        var survivors: [Survivor?] = Array(repeating: nil, count: old.count)
        var matched = Set<Int>()
        var (i, j) = (0, 0)
        while i < old.count, j < new.count {
            if graph.isSameScreen(old[i], new[j]) {
                survivors[i] = (j, true)
                matched.insert(j)
                (i, j) = (i + 1, j + 1)
            } else if lengths[i + 1][j] >= lengths[i][j + 1] {
                i += 1
            } else {
                j += 1
            }
        }
        // From the top down: of several live copies of one screen, the topmost is the one kept.
        for i in old.indices.reversed() where survivors[i] == nil {
            if let j = new.indices.first(where: { !matched.contains($0) && graph.isSameScreen(old[i], new[$0]) }) {
                survivors[i] = (j, false)
                matched.insert(j)
            }
        }
        return survivors
    }

    /// Step 1: leaves or removes, from the top down, every live screen that does not stay.
    private mutating func removeTheRest(_ old: [Entry], survivors: [Survivor?]) -> Bool {
        for i in old.indices.reversed() where survivors[i] == nil {
            let isTop = tree.activePath.last == old[i]
            guard run(isTop ? .leave(old[i]) : .remove(old[i]), kind: isTop ? .leave : .remove) else { return false }
        }
        return true
    }

    /// Step 2: updates in place each screen that stays whose destination entry has another context.
    private mutating func updateSurvivors(_ old: [Entry], _ new: [Entry], survivors: [Survivor?]) -> Bool {
        for i in old.indices {
            guard let to = survivors[i]?.to, old[i] != new[to] else { continue }
            // The screen stays, so it keeps what it remembers (`Entry.earlierContexts`).
            guard run(.update(old[i], to: old[i].updated(to: new[to], .keep)), kind: .update) else { return false }
        }
        return true
    }

    /// Step 3: from the bottom up, moves or inserts each destination screen that is not kept in
    /// order directly under the nearest kept one above it (to the top when there is none), then
    /// enters what stands above the last screen kept.
    private mutating func place(_ new: [Entry], survivors: [Survivor?]) -> Bool {
        var inOrder = Set<Int>()
        var moved = Set<Int>()
        for case let (to, keepsOrder)? in survivors { if keepsOrder { inOrder.insert(to) } else { moved.insert(to) } }
        let lastSurvivor = inOrder.union(moved).max() ?? -1
        for j in new.indices where j <= lastSurvivor && !inOrder.contains(j) {
            let upper = new.indices[(j + 1)...].first(where: inOrder.contains).map { new[$0] }
            let screen = new[j]
            if moved.contains(j) {
                let standsThere = upper == nil ? tree.activePath.last == screen : tree.entry(above: screen) == upper
                if !standsThere, !run(.move(screen, under: upper), kind: .move) { return false }
            } else if let upper {
                guard run(.insert(screen, under: upper), kind: .insert) else { return false }
            } else {
                guard run(.enter(screen), kind: .enter) else { return false }
            }
        }
        for j in new.indices where j > lastSurvivor {
            guard run(.enter(new[j]), kind: .enter) else { return false }
        }
        return true
    }

    /// Applies `instruction` to the copy of the tree and keeps it, with what a router needs to run
    /// it (`PlannedStep`); false when the tree refuses it.
    private mutating func run(_ instruction: Instruction, kind: PlannedStep.Kind) -> Bool {
        let node = instruction.handlingNode
        let before = tree.activePath.lastIndex(of: node) ?? tree.activePath.count
        do {
            try tree.apply(instruction)
        } catch {
            return false
        }
        let index = tree.graph.index(of: node.id) ?? 0
        let depth = kind == .insert || kind == .move ? tree.activePath.lastIndex(of: node) ?? before : before
        instructions.append(instruction)
        steps.append(PlannedStep(kind: kind, node: index, depth: depth, target: index))
        return true
    }
}
