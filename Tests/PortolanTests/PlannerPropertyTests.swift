@testable import Portolan
import TestSupport
import PropertyBased
import Testing

/// Property tests of the planner and the live tree on random graphs.
///
/// Each case is a random walk: a random graph (screens and switch nodes, up to 8 deep, some nodes
/// reachable from anywhere), then a random sequence of steps on one tree — routes to random
/// destinations (mostly valid paths walked in the graph, some with contexts, some invalid), host
/// reports (valid or not) and routes under `canLeave` vetoes. Every step is checked against an
/// oracle written from DESIGN.md ("The model", "The planner"), not against the planner's code.
///
/// The generated inputs are a seed and a few sizes; everything else is derived from the seed with
/// a small deterministic generator, so a failing case is reproduced by its printed input alone.
@Suite struct PlannerPropertyTests {
    /// Routes only, no vetoes and no host reports: every plan reaches its destination or fails typed,
    /// runs as planned, is idempotent and O(depth), and the tree stays valid.
    @Test func routesReachTheirDestinationOrFailTyped() async {
        await propertyCheck(count: 500, input: Gen.uint64(), Gen.int(in: 1...8), Gen.int(in: 1...40)) {
            seed, depth, steps in
            let failure = RandomWalk.run(seed: seed, maxDepth: depth, steps: steps, mix: .routesOnly)
            #expect(failure == nil, "\(failure ?? "")")
        }
    }

    /// Routes interleaved with the host's own reports (didEnter/didLeave/didSwitch), valid or not.
    @Test func hostReportsKeepTheTreeValid() async {
        await propertyCheck(count: 500, input: Gen.uint64(), Gen.int(in: 1...8), Gen.int(in: 1...40)) {
            seed, depth, steps in
            let failure = RandomWalk.run(seed: seed, maxDepth: depth, steps: steps, mix: .withHostReports)
            #expect(failure == nil, "\(failure ?? "")")
        }
    }

    /// Routes under random `canLeave` vetoes (refusals and throwing checks), plus host reports: a
    /// vetoed plan is blocked at the first leave the veto refuses, and asks nothing else.
    @Test func vetoesBlockAtARefusedLeave() async {
        await propertyCheck(count: 500, input: Gen.uint64(), Gen.int(in: 1...8), Gen.int(in: 1...40)) {
            seed, depth, steps in
            let failure = RandomWalk.run(seed: seed, maxDepth: depth, steps: steps, mix: .withVetoes)
            #expect(failure == nil, "\(failure ?? "")")
        }
    }

    /// Long walks on deep graphs, where anywhere nodes stack up: the plan length stays within
    /// 2 × (live tree depth + destination length) + 1 and everything else still holds.
    @Test func plansStayLinearInDepth() async {
        await propertyCheck(count: 200, input: Gen.uint64(), Gen.int(in: 6...8), Gen.int(in: 60...120)) {
            seed, depth, steps in
            let failure = RandomWalk.run(seed: seed, maxDepth: depth, steps: steps, mix: .everything)
            #expect(failure == nil, "\(failure ?? "")")
        }
    }

    /// The generator itself: it makes graphs of both kinds of node, as deep as asked, with anywhere
    /// nodes, and walks reach deep paths — so the properties above are not vacuous.
    @Test func randomGraphsCoverWhatTheyShould() throws {
        var sawSwitch = false, sawAnywhere = false, deepest = 0, longestPath = 0
        for seed in UInt64(0)..<200 {
            let shape = try RandomGraph(seed: seed, maxDepth: 8)
            sawSwitch = sawSwitch || shape.ids.contains { shape.graph[$0]?.kind == .switch }
            sawAnywhere = sawAnywhere || !shape.graph.anywhereIDs.isEmpty
            deepest = max(deepest, shape.depth)
            var walk = RandomWalk(shape: shape, seed: seed, mix: .routesOnly)
            for _ in 0..<20 where walk.step() == nil {
                longestPath = max(longestPath, walk.tree.activePath.count)
            }
        }
        #expect(sawSwitch && sawAnywhere)
        #expect(deepest == 8)
        #expect(longestPath >= 8)
    }
}

// MARK: - Regressions these properties found

@Suite struct PlannerRegressionTests {
    /// switchNode1 > node1 > node5, then route to switchNode1 > node1 {tab=x}: the planner once read
    /// node1 from the switch's snapshot taken before node5 was left, and planned to leave node5 twice.
    @Test func switchingToTheShownChildWithAnotherContextLeavesOnce() throws {
        var tree = try PortusTree.tree()
        _ = try planAndApply(&tree, to: path("switchNode1", "node1", "node5"))
        let destination = Destination.path(["switchNode1", Entry("node1", context: ["tab": "x"])])
        let plan = try Planner.plan(from: tree, to: destination)
        #expect(texts(plan) == ["leave node5", "switch switchNode1 -> node1 {tab=x}"])
        for instruction in plan {
            try tree.apply(instruction)
        }
        #expect(tree.activePath == ["switchNode1", Entry("node1", context: ["tab": "x"])])
    }

    /// Entering the anywhere switch `login` (leaf: its managed `password`), then routing anywhere to
    /// `login` again: the planner once compared with the managed leaf and entered it again.
    @Test func routingAnywhereToASwitchTwiceDoesNothing() throws {
        var tree = try PortusTree.tree(anywhere: [.switch("login", [.screen("password"), .screen("code")])])
        #expect(texts(try planAndApply(&tree, to: .anywhere("login"))) == ["enter login"])
        #expect(try Planner.plan(from: tree, to: .anywhere("login")) == [])
        let other = Entry("login", context: ["as": "guest"])
        #expect(texts(try Planner.plan(from: tree, to: .anywhere(other))) == ["leave login", "enter login {as=guest}"])
    }
}

// MARK: - Random graphs

/// A random, valid graph: a tree of screens and switch nodes under one root, plus up to two nodes
/// reachable from anywhere (which may have children, and may themselves be switch nodes).
private struct RandomGraph {
    let graph: NavigationGraph
    /// Every declared id, in declaration order (the graph's own order is a dictionary's).
    let ids: [NodeID]
    /// The depth of the declared tree under the root.
    let depth: Int

    init(seed: UInt64, maxDepth: Int) throws {
        var random = SeededRandom(seed: seed)
        var builder = Builder(maxDepth: maxDepth, budget: 44)
        let root = builder.node("n", depth: 0, &random)
        var anywhere: [NodeSpec] = []
        for _ in 0..<random.below(3) {
            builder.budget = max(builder.budget, 0) + 4
            anywhere.append(builder.node("a", depth: max(maxDepth - 2, 0), &random))
        }
        graph = try NavigationGraph(root: root, anywhere: anywhere)
        ids = builder.ids
        depth = Self.depth(of: root)
    }

    private static func depth(of spec: NodeSpec) -> Int {
        spec.children.map { depth(of: $0) + 1 }.max() ?? 0
    }

    private struct Builder {
        let maxDepth: Int
        var budget: Int
        var ids: [NodeID] = []

        mutating func node(_ prefix: String, depth: Int, _ random: inout SeededRandom) -> NodeSpec {
            let id = "\(prefix)\(ids.count)"
            ids.append(id)
            budget -= 1
            let mayHaveChildren = depth < maxDepth && budget > 0
            // The first branch goes deepest, so every graph reaches close to `maxDepth`.
            if mayHaveChildren, random.chance(0.3) {
                var children: [NodeSpec] = []
                for _ in 0..<(1 + random.below(3)) where budget > 0 || children.isEmpty {
                    children.append(node(prefix, depth: depth + 1, &random))
                }
                let active = random.chance(0.5) ? random.pick(children)?.id : nil
                return .switch(id, active: active, children)
            }
            var children: [NodeSpec] = []
            if mayHaveChildren {
                let count = random.chance(0.2) ? 0 : 1 + random.below(3)
                for _ in 0..<count where budget > 0 {
                    children.append(node(prefix, depth: depth + 1, &random))
                }
            }
            return .screen(id, children)
        }
    }
}

// MARK: - The walk

private struct Refusal: Error {}

/// What `canLeave` answers during one route.
private enum Veto: CustomStringConvertible {
    case none
    /// Returns false for these ids.
    case refuse(Set<NodeID>)
    /// Throws for these ids.
    case fail(Set<NodeID>)

    var ids: Set<NodeID> {
        switch self {
        case .none: return []
        case .refuse(let ids), .fail(let ids): return ids
        }
    }

    var expectedKind: FailureKind {
        if case .fail = self { return .handlerFailed }
        return .blocked
    }

    var description: String {
        switch self {
        case .none: return "no veto"
        case .refuse(let ids): return "refuse \(ids.sorted())"
        case .fail(let ids): return "throw for \(ids.sorted())"
        }
    }
}

private struct RandomWalk {
    enum Mix {
        case routesOnly, withHostReports, withVetoes, everything
    }

    let shape: RandomGraph
    let mix: Mix
    var tree: RoutingTree
    var random: SeededRandom
    private(set) var trace: [String] = []

    var graph: NavigationGraph { shape.graph }

    init(shape: RandomGraph, seed: UInt64, mix: Mix) {
        self.shape = shape
        self.mix = mix
        self.tree = RoutingTree(graph: shape.graph)
        // Another stream than the graph's, from the same seed.
        self.random = SeededRandom(seed: seed ^ 0x5DEE_CE66_D1CE_4E5B)
    }

    /// Runs a walk; nil when every property held, otherwise what broke, with the steps that led there.
    static func run(seed: UInt64, maxDepth: Int, steps: Int, mix: Mix) -> String? {
        let shape: RandomGraph
        do {
            shape = try RandomGraph(seed: seed, maxDepth: maxDepth)
        } catch {
            return "the generator made an invalid graph: \(error)"
        }
        var walk = RandomWalk(shape: shape, seed: seed, mix: mix)
        if let violation = walk.invariantViolation(of: walk.tree) {
            return walk.report("initial tree: \(violation)")
        }
        for _ in 0..<steps {
            if let violation = walk.step() {
                return walk.report(violation)
            }
        }
        return nil
    }

    func report(_ violation: String) -> String {
        """
        \(violation)
        steps:
          \(trace.joined(separator: "\n  "))
        tree now:
        \(TreeRenderer.text(tree))
        """
    }

    /// One random step; nil when every property held.
    mutating func step() -> String? {
        switch mix {
        case .routesOnly:
            return route(veto: .none)
        case .withHostReports:
            return random.chance(0.5) ? route(veto: .none) : hostReport()
        case .withVetoes:
            return random.chance(0.8) ? route(veto: randomVeto()) : hostReport()
        case .everything:
            return random.chance(0.7) ? route(veto: random.chance(0.3) ? randomVeto() : .none) : hostReport()
        }
    }

    // MARK: Routes

    mutating func route(veto: Veto) -> String? {
        let before = tree
        let destination = randomDestination()
        trace.append("route to \(destination) (\(veto))")
        let free = Result { () throws(RouteFailure) in try Planner.plan(from: before, to: destination) }
        var asked: [Entry] = []
        let vetoed = Result { () throws(RouteFailure) in
            try Planner.plan(from: before, to: destination) { entry in
                asked.append(entry)
                guard veto.ids.contains(entry.id) else { return true }
                if case .fail = veto { throw Refusal() }
                return false
            }
        }

        // Validation comes first and is the same whatever canLeave says.
        if let expected = expectedFailure(destination) {
            guard case .failure(let failure) = free else {
                return "planned \(free.success ?? []) for a destination that should fail as \(expected)"
            }
            guard failure.kind == expected, failure.instruction == nil, failure.executed.isEmpty,
                !failure.message.isEmpty
            else {
                return "expected a plain \(expected) failure, got \(failure)"
            }
            guard vetoed == free, asked.isEmpty else {
                return "an invalid destination asked canLeave \(asked) or failed otherwise: \(vetoed)"
            }
            return tree == before ? nil : "a failed plan changed the tree"
        }

        let plan: [Instruction]
        switch free {
        case .success(let instructions):
            plan = instructions
        case .failure(let failure):
            return "a valid destination failed: \(failure)"
        }
        trace.append("  plan: \(plan.map(\.description))")

        // O(depth), where depth is the live tree's, not only the active path's: switching back to a
        // tab whose stack the host left open, then leaving that stack, is longer than the active path.
        let depth = Self.depth(of: before.root)
        let bound = 2 * (depth + destinationLength(destination)) + 1
        guard plan.count <= bound else {
            return "plan of \(plan.count) instructions exceeds 2 × (tree depth \(depth) + destination) + 1 = \(bound)"
        }
        // Each destination entry below the root is switched to or entered at most once.
        let arrivals = plan.filter { if case .leave = $0 { return false } else { return true } }.count
        guard arrivals <= max(destinationLength(destination) - 1, 1) else {
            return "plan switches or enters \(arrivals) times for a destination of \(destinationLength(destination))"
        }

        // Vetoes: the first leave of a refused node stops the plan, and nothing past it is asked.
        let leaves = plan.compactMap { instruction -> Entry? in
            if case .leave(let entry) = instruction { return entry }
            return nil
        }
        if let refused = leaves.firstIndex(where: { veto.ids.contains($0.id) }) {
            guard case .failure(let failure) = vetoed else {
                return "the veto (\(veto)) let through a plan that leaves \(leaves[refused])"
            }
            guard failure.kind == veto.expectedKind, failure.instruction == .leave(leaves[refused]),
                failure.executed.isEmpty
            else {
                return "a plan vetoed at \(leaves[refused]) failed as \(failure)"
            }
            guard asked == Array(leaves[...refused]) else {
                return "a vetoed plan asked canLeave of \(asked), expected \(Array(leaves[...refused]))"
            }
            trace.append("  blocked: \(failure)")
            return tree == before ? nil : "a vetoed plan changed the tree"
        }
        guard vetoed == free else {
            return "a veto (\(veto)) that refuses none of the leaves changed the outcome: \(vetoed)"
        }
        guard asked == leaves else {
            return "canLeave was asked of \(asked), but the plan leaves \(leaves)"
        }

        // The plan runs as planned.
        var after = before
        for instruction in plan {
            do {
                try after.apply(instruction)
            } catch {
                return "applying \(instruction) of the plan \(plan.map(\.description)) threw: \(error)"
            }
            if let violation = invariantViolation(of: after) {
                return "after \(instruction): \(violation)"
            }
        }
        tree = after

        if let violation = arrivalViolation(destination, before: before, after: after, plan: plan) {
            return violation
        }
        switch Result(catching: { () throws(RouteFailure) in try Planner.plan(from: after, to: destination) }) {
        case .success(let again) where again.isEmpty:
            return nil
        case .success(let again):
            return "planning again right after arriving is not idempotent: \(again.map(\.description))"
        case .failure(let failure):
            return "planning again right after arriving failed: \(failure)"
        }
    }

    /// The number of nodes on the longest root-to-leaf chain of the live tree.
    private static func depth(of node: LiveNode) -> Int {
        1 + (node.children.map { depth(of: $0) }.max() ?? 0)
    }

    private func destinationLength(_ destination: Destination) -> Int {
        switch destination {
        case .path(let entries): return entries.count
        case .anywhere: return 1
        }
    }

    /// The failure DESIGN.md promises for a destination, before anything is planned; nil if valid.
    private func expectedFailure(_ destination: Destination) -> FailureKind? {
        switch destination {
        case .path(let entries):
            guard let first = entries.first else { return .invalid }
            if entries.contains(where: { !$0.isWellFormed }) { return .invalid }
            guard first == tree.root.entry else { return .unreachable }
            for (parent, child) in zip(entries, entries.dropFirst()) where !graph.allows(child.id, below: parent.id) {
                return .unreachable
            }
            return nil
        case .anywhere(let entry):
            guard entry.isWellFormed else { return .invalid }
            guard let declaration = graph[entry.id], declaration.isAnywhere else { return .unreachable }
            return nil
        }
    }

    /// Where a successful plan must have left the tree.
    private func arrivalViolation(_ destination: Destination, before: RoutingTree, after: RoutingTree, plan: [Instruction]) -> String? {
        let nodes = after.activeNodes
        guard nodes.map(\.entry) == after.activePath else { return "activeNodes and activePath disagree" }
        switch destination {
        case .path(let entries):
            guard Array(after.activePath.prefix(entries.count)) == entries else {
                return "arrived at \(after.activePath) instead of \(entries)"
            }
            if let stray = nodes.dropFirst(entries.count).first(where: { !$0.isManaged }) {
                return "\(stray.entry) is below the destination's end and not managed by its parent"
            }
            if before.activePath == entries, !plan.isEmpty { return "routing to where you are did something" }
            return nil
        case .anywhere(let entry):
            // Compared with the top of the active path: the leaf, or the switch node whose managed
            // children the leaf belongs to (an anywhere switch entered before).
            let oldNodes = before.activeNodes
            let top = oldNodes.lastIndex(where: { !$0.isManaged }) ?? 0
            if oldNodes[top].entry == entry {
                return plan.isEmpty ? nil : "routing anywhere to the node on top did something"
            }
            // The same node with another context is left first; anything else is entered on top.
            let old = before.activePath
            let kept = oldNodes[top].entry.id == entry.id ? Array(old.prefix(top)) : old
            guard after.activePath.count > kept.count, Array(after.activePath.prefix(kept.count)) == kept,
                after.activePath[kept.count] == entry
            else {
                return "anywhere \(entry) was not entered on top of \(kept): at \(after.activePath)"
            }
            if let stray = nodes.dropFirst(kept.count + 1).first(where: { !$0.isManaged }) {
                return "\(stray.entry) is below the entered \(entry) and not managed by its parent"
            }
            return nil
        }
    }

    // MARK: Random destinations

    mutating func randomDestination() -> Destination {
        let anywhereIDs = graph.anywhereIDs
        switch random.below(100) {
        case 0..<55:
            return .path(validPath())
        case 55..<65:
            guard let id = random.pick(anywhereIDs) else { return .path(validPath()) }
            return .anywhere(Entry(id, context: randomContext()))
        case 65..<68:
            return .path([])
        case 68..<74:
            // An unknown id somewhere along a valid path.
            var entries = validPath()
            entries.insert(Entry("ghost\(random.below(3))"), at: 1 + random.below(entries.count))
            return .path(entries)
        case 74..<82:
            // Any declared node below a valid path: often not allowed there.
            return .path(validPath() + [Entry(randomDeclaredID(), context: randomContext())])
        case 82..<87:
            // Root mismatch: the root with a context, or a path that starts elsewhere.
            if random.chance(0.5) {
                return .path([Entry(graph.rootID, context: ["id": 1])] + validPath().dropFirst())
            }
            return .path(Array(validPath().dropFirst()) + [Entry(randomDeclaredID())])
        case 87..<91:
            var entries = validPath()
            let malformed = random.chance(0.5) ? Entry("") : Entry(entries[entries.count - 1].id, context: ["x": .number(.nan)])
            entries[random.below(entries.count)] = malformed
            return .path(entries)
        case 91..<96:
            return .anywhere(Entry(randomDeclaredID(), context: randomContext()))
        default:
            return .anywhere(random.chance(0.5) ? Entry("ghost") : Entry("", context: [:]))
        }
    }

    /// A path walked in the graph: from the root, or from a prefix of the active path (so it often
    /// shares a stem with where the tree is), down declared children and anywhere nodes.
    mutating func validPath() -> [Entry] {
        let active = tree.activePath
        var entries = random.chance(0.6) ? Array(active.prefix(1 + random.below(active.count))) : [tree.root.entry]
        var steps = 0
        while steps < 10, random.chance(0.8), let parent = entries.last.flatMap({ graph[$0.id] }) {
            var candidates = parent.children
            if parent.kind == .screen, random.chance(0.2) { candidates += graph.anywhereIDs }
            guard let id = random.pick(candidates) else { break }
            entries.append(Entry(id, context: randomContext()))
            steps += 1
        }
        return entries
    }

    mutating func randomContext() -> Context {
        guard random.chance(0.25) else { return [:] }
        let contexts: [Context] = [
            ["id": 1], ["id": 2], ["id": .number(1)], ["id": .number(2.5)], ["lang": "en"],
            ["id": 1, "lang": "en"], ["on": true], ["id": "1"],
        ]
        return random.pick(contexts) ?? [:]
    }

    mutating func randomDeclaredID() -> NodeID {
        random.pick(shape.ids) ?? graph.rootID
    }

    mutating func randomVeto() -> Veto {
        let onPath = tree.activePath.map(\.id)
        var ids: Set<NodeID> = []
        for _ in 0..<(1 + random.below(3)) {
            if let id = random.chance(0.7) ? random.pick(onPath) : random.pick(shape.ids) { ids.insert(id) }
        }
        switch random.below(10) {
        case 0: return .none
        case 1, 2: return .fail(ids)
        default: return .refuse(ids)
        }
    }

    // MARK: Host reports

    mutating func hostReport() -> String? {
        let before = tree
        let nodes = before.activeNodes
        switch random.below(3) {
        case 0:
            guard let leaf = nodes.last, let declaration = graph[leaf.entry.id] else { return "no active leaf" }
            let candidates = declaration.children + (declaration.kind == .screen ? graph.anywhereIDs : [])
            let id = random.chance(0.6) ? (random.pick(candidates) ?? randomDeclaredID()) : randomDeclaredID()
            let entry = Entry(random.chance(0.05) ? "ghost" : id, context: randomContext())
            trace.append("host didEnter \(entry)")
            let expected = graph[entry.id] != nil && leaf.kind == .screen && graph.allows(entry.id, below: leaf.entry.id)
            return hostOutcome(expected: expected, before: before) { tree throws(TreeUpdateError) in
                try tree.didEnter(entry)
            } arrival: { after in
                let path = after.activePath
                guard path.count > nodes.count, Array(path.prefix(nodes.count)) == before.activePath,
                    path[nodes.count] == entry,
                    after.activeNodes.dropFirst(nodes.count + 1).allSatisfy(\.isManaged)
                else { return "didEnter \(entry) ended at \(path)" }
                return nil
            }
        case 1:
            let id = random.chance(0.8) ? (random.pick(nodes.map(\.entry.id)) ?? "ghost") : randomDeclaredID()
            trace.append("host didLeave \(id)")
            let depth = nodes.lastIndex { $0.entry.id == id }
            let expected = depth.map { $0 > 0 && !nodes[$0].isManaged } ?? false
            return hostOutcome(expected: expected, before: before) { tree throws(TreeUpdateError) in
                try tree.didLeave(id)
            } arrival: { after in
                guard let depth, after.activePath == Array(before.activePath.prefix(depth)) else {
                    return "didLeave \(id) ended at \(after.activePath)"
                }
                return nil
            }
        default:
            let switches = nodes.filter { $0.kind == .switch }.map(\.entry.id)
            let switchID = random.chance(0.8) ? (random.pick(switches) ?? randomDeclaredID()) : randomDeclaredID()
            let declared = graph[switchID]?.children ?? []
            let child = random.chance(0.8) ? (random.pick(declared) ?? randomDeclaredID()) : randomDeclaredID()
            trace.append("host didSwitch \(switchID) -> \(child)")
            let depth = nodes.lastIndex { $0.entry.id == switchID && $0.kind == .switch }
            let target = depth.flatMap { nodes[$0].children.first { $0.entry.id == child } }
            return hostOutcome(expected: target != nil, before: before) { tree throws(TreeUpdateError) in
                try tree.didSwitch(switchID, to: child)
            } arrival: { after in
                // The child comes back as it was: its context and whatever was open inside it.
                guard let depth, let target,
                    after.activePath == Array(before.activePath.prefix(depth + 1)) + Self.activeChain(of: target)
                else { return "didSwitch \(switchID) -> \(child) ended at \(after.activePath)" }
                return nil
            }
        }
    }

    private mutating func hostOutcome(
        expected: Bool, before: RoutingTree,
        _ report: (inout RoutingTree) throws(TreeUpdateError) -> Instruction,
        arrival: (RoutingTree) -> String?
    ) -> String? {
        var after = before
        do {
            let instruction = try report(&after)
            trace.append("  -> \(instruction)")
            guard expected else { return "the tree accepted a report it should refuse" }
            if let violation = invariantViolation(of: after) ?? arrival(after) { return violation }
            tree = after
            return nil
        } catch {
            trace.append("  refused: \(error)")
            guard !expected else { return "the tree refused a valid report: \(error)" }
            return after == before ? nil : "a refused report changed the tree"
        }
    }

    private static func activeNodes(of node: LiveNode) -> [LiveNode] {
        var chain = [node]
        var node = node
        while let child = node.activeChild {
            chain.append(child)
            node = child
        }
        return chain
    }

    private static func activeChain(of node: LiveNode) -> [Entry] {
        activeNodes(of: node).map(\.entry)
    }

    // MARK: Tree invariants

    /// The first broken invariant of the live tree, if any (DESIGN.md, "The model").
    func invariantViolation(of tree: RoutingTree) -> String? {
        let root = tree.root
        guard root.entry == Entry(graph.rootID), !root.isManaged else { return "the root is \(root.entry)" }
        return violation(in: root)
    }

    private func violation(in node: LiveNode) -> String? {
        let id = node.entry.id
        guard node.entry.isWellFormed else { return "malformed entry \(node.entry) in the tree" }
        guard let declaration = graph[id] else { return "undeclared node \(id) in the tree" }
        guard declaration.kind == node.kind else { return "\(id) is a \(node.kind), declared \(declaration.kind)" }
        switch node.kind {
        case .screen:
            guard node.children.count <= 1 else { return "screen \(id) holds \(node.children.count) children" }
            guard node.activeIndex == (node.children.isEmpty ? nil : 0) else {
                return "screen \(id) has activeIndex \(String(describing: node.activeIndex)) with \(node.children.count) children"
            }
        case .switch:
            guard node.children.map(\.entry.id) == declaration.children else {
                return "switch \(id) holds \(node.children.map(\.entry.id)), declared \(declaration.children)"
            }
            guard let index = node.activeIndex, node.children.indices.contains(index) else {
                return "switch \(id) has activeIndex \(String(describing: node.activeIndex))"
            }
        }
        for child in node.children {
            guard graph.allows(child.entry.id, below: id) else { return "\(child.entry.id) stands below \(id)" }
            guard child.isManaged == (node.kind == .switch) else {
                return "\(child.entry.id) below \(node.kind) \(id) has isManaged \(child.isManaged)"
            }
            if let violation = violation(in: child) { return violation }
        }
        return nil
    }
}
