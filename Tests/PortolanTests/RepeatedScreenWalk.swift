import Portolan
import TestSupport

/// A random app with repeated screens, and a random walk of routes on a router over it: the
/// oracle of `RepeatedScreenPropertyTests`.
///
/// The app: a switch of 1 to 3 tabs that keep their stacks, and 1 to 3 shared screens declared
/// under the first tab, each pushed by a random set of the tabs, the shared screens (themselves
/// included) and a child of theirs; an anywhere `alert`; random path limits. Every handler fails
/// when its entry's context says `fail = true`, so that some routes are undone midway.
struct RepeatedScreenWalk {
    let graph: NavigationGraph
    let router: Router
    private var random: SeededRandom
    private let tabs: [NodeID]
    private let shared: [NodeID]

    init(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let tabs = (0..<random.int(in: 1...3)).map { "tab\($0)" }
        let shared = (0..<random.int(in: 1...3)).map { "shared\($0)" }
        var pushers: [NodeID: [NodeID]] = [:]
        for pusher in tabs + shared + shared.map({ $0 + "_detail" }) {
            pushers[pusher] = shared.filter { _ in random.chance(0.6) }
        }
        let sharedSpecs = shared.map { id in
            NodeSpec(id, children: [NodeSpec(id + "_detail", pushes: pushers[id + "_detail"] ?? [])],
                     pushes: pushers[id] ?? [], launch: random.pick([nil] + LaunchMode.allCases.map(Optional.some)) ?? nil)
        }
        let tabSpecs = tabs.enumerated().map { offset, id in
            NodeSpec(id, children: offset == 0 ? sharedSpecs : [], pushes: pushers[id] ?? [])
        }
        let limits = try PathLimits(maxDepth: random.int(in: 4...12), maxCopies: random.int(in: 1...4))
        graph = try NavigationGraph(
            root: NodeSpec("tabs", kind: .switch, children: tabSpecs, keepsStacks: true),
            anywhere: [.screen("alert")], limits: limits)
        self.random = random
        self.tabs = tabs
        self.shared = shared
        router = Router(graph: graph, configuration: .init(handlerTimeout: .seconds(600)))
        let failing = NodeHandlers(
            enter: { entry, _ in try Self.failIfAsked(entry) }, leave: { entry, _ in try Self.failIfAsked(entry) })
        for id in tabs + shared + shared.map({ $0 + "_detail" }) + ["alert"] {
            router.bind(failing, to: id)
        }
    }

    private static func failIfAsked(_ entry: Entry) throws {
        if entry.context["fail"] == .boolean(true) { throw HandlerError("\(entry) fails") }
    }

    /// One random step; what is wrong, or nil.
    mutating func step() async -> String? {
        let destination = randomDestination()
        let before = router.tree
        let planned = await router.plan(to: destination)
        let result = await router.route(to: destination)
        let after = router.tree
        let where_ = "\(destination) from \(before.activePath)"
        switch (planned.result, result) {
        case (.success(let plan), .success(let executed)):
            guard plan == executed else { return "\(where_): planned \(plan), executed \(executed)" }
            if let expected = expectedPath(destination, from: before), expected != Array(after.activePath.prefix(expected.count)) {
                return "\(where_): arrived at \(after.activePath), expected \(expected)"
            }
        case (.success(let plan), .failure(let failure)):
            guard failure.kind == .handlerFailed, plan.starts(with: failure.executed) else {
                return "\(where_): planned \(plan), failed \(failure)"
            }
            guard after == before else { return "\(where_): the undo left \(after.activePath), not \(before.activePath)" }
        case (.failure(let expected), .failure(let failure)):
            guard expected.kind == failure.kind, expected.message == failure.message, after == before else {
                return "\(where_): the plan failed with \(expected), the route with \(failure)"
            }
        case (.failure(let expected), .success(let executed)):
            return "\(where_): the plan failed with \(expected), the route ran \(executed)"
        }
        return limitViolation(after)
    }

    /// The path a successful route must reach, written from the launch modes' documentation.
    private func expectedPath(_ destination: Destination, from tree: RoutingTree) -> [Entry]? {
        if case .reset(let entries) = destination { return entries }
        guard case .push(let entry, let launch, let popUpTo) = destination else { return nil }
        let path = popUpTo.map { poppedPath(tree.activePath, upTo: $0) } ?? tree.activePath
        let top = path.count - 1
        let topIsOwnScreen = top > 0 && graph[path[top - 1].id]?.kind == .screen
        let base = path.lastIndex { graph[$0.id]?.kind == .switch }.map { $0 + 1 } ?? 0
        let copies = path.indices.filter { $0 > base && path[$0].id == entry.id }
        switch launch ?? graph[entry.id]?.launch ?? .push {
        case .push:
            return path + [entry]
        case .pushNew:
            return topIsOwnScreen && path[top] == entry ? path : path + [entry]
        case .popTo:
            if let nearest = copies.last { return Array(path[..<nearest]) + [entry] }
            return topIsOwnScreen ? Array(path.dropLast()) + [entry] : path + [entry]
        case .popToOrPush:
            return copies.last.map { Array(path[..<$0]) + [entry] } ?? path + [entry]
        case .singleTask:
            return copies.first.map { Array(path[..<$0]) + [entry] } ?? path + [entry]
        case .singleTop:
            return topIsOwnScreen && path[top].id == entry.id ? Array(path.dropLast()) + [entry] : path + [entry]
        case .clearTop:
            if let depth = path.indices.last(where: { $0 > base && path[$0] == entry }) { return Array(path[...depth]) }
            return path + [entry]
        case .replace:
            return topIsOwnScreen ? Array(path.dropLast()) + [entry] : path + [entry]
        case .bringToFront:
            return path.indices.filter { !copies.contains($0) }.map { path[$0] } + [entry]
        case .reorderToFront:
            guard let nearest = copies.last(where: { path[$0] == entry }) else { return path + [entry] }
            return Array(path[..<nearest]) + path[(nearest + 1)...] + [entry]
        case .singular:
            return path.indices.filter { !copies.contains($0) || path[$0] != entry }.map { path[$0] } + [entry]
        }
    }

    /// `path` after going back to the most recent `popUpTo` node above the tab's root (to the
    /// tab's root itself, inclusive or not), as `PopUpTo` documents.
    private func poppedPath(_ path: [Entry], upTo popUpTo: PopUpTo) -> [Entry] {
        let base = path.lastIndex { graph[$0.id]?.kind == .switch }.map { $0 + 1 } ?? 0
        guard let depth = path.indices.last(where: { $0 >= base && path[$0].id == popUpTo.id }) else { return path }
        return Array(path[..<(popUpTo.inclusive && depth > base ? depth : depth + 1)])
    }

    private func limitViolation(_ tree: RoutingTree) -> String? {
        guard tree.activePath.count <= graph.limits.maxDepth else { return "\(tree.activePath) is past max_depth" }
        for id in Set(tree.activePath.map(\.id)) where tree.activePath.count(where: { $0.id == id }) > graph.limits.maxCopies {
            return "\(tree.activePath) holds too many copies of \(id)"
        }
        return nil
    }

    private mutating func randomDestination() -> Destination {
        let tree = router.tree
        switch random.below(11) {
        case 0...4:
            let popUpTo = random.chance(0.2) ? PopUpTo(random.pick(tabs + shared) ?? "tab0", inclusive: random.chance(0.5)) : nil
            return .push(randomEntry(), launch: random.chance(0.5) ? random.pick(LaunchMode.allCases) : nil, popUpTo: popUpTo)
        case 5:
            return .live(random.pick(shared) ?? "shared0", occurrence: random.int(in: 1...3))
        case 6:
            return (try? tree.destination(switching: "tabs", to: random.pick(tabs) ?? "tab0")) ?? .anywhere("alert")
        case 7:
            return .path(Array(tree.activePath.prefix(random.int(in: 1...tree.activePath.count))))
        case 8:
            return .anywhere("alert")
        case 9:
            return reshuffledStack(of: tree)
        default:
            return .push(Entry((random.pick(shared) ?? "shared0") + "_detail"))
        }
    }

    /// A reset to the active tab's stack with some of its screens dropped, the rest in another
    /// order and, at times, a new screen among them: an edit of the stack, or no path at all.
    private mutating func reshuffledStack(of tree: RoutingTree) -> Destination {
        let path = tree.activePath
        let base = path.lastIndex { graph[$0.id]?.kind == .switch }.map { $0 + 2 } ?? 1
        var screens = Array(path.dropFirst(min(base, path.count))).filter { _ in random.chance(0.8) }
        for index in screens.indices.reversed() {
            screens.swapAt(index, random.int(in: 0...index))
        }
        if random.chance(0.4) { screens.insert(randomEntry(), at: random.int(in: 0...screens.count)) }
        return .reset(Array(path.prefix(base)) + screens)
    }

    private mutating func randomEntry() -> Entry {
        var context: Context = ["id": .integer(Int64(random.int(in: 1...3)))]
        if random.chance(0.1) { context["fail"] = .boolean(true) }
        return Entry(random.pick(shared) ?? "shared0", context: context)
    }
}
