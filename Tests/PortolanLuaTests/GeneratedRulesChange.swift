import TestSupport

/// A random Lua app (version 1) and a random change of its rules (version 2), for the host-level
/// rules-change property (`SnapshotHostPropertyTests`): a root tab bar that keeps its stacks,
/// screens nested a few deep, some of them tab bars too, some pushed over themselves, every one
/// with handlers that run; then renames, removals, moves and changed contexts, each declared in
/// `migrations[2]` or (removals and moves, some of the time) not, and sometimes lower path limits.
struct GeneratedRulesChange {
    /// A node of the app: a screen, or a switch node that keeps its children's stacks.
    struct Node: Equatable {
        var id: String
        var isSwitch = false
        var pushesItself = false
        var children: [Node] = []
    }

    /// What the new guard or handler on a node of the restored path does (`source(v2:, verdict:)`).
    enum Verdict: CaseIterable {
        case deny, redirect, fail
    }

    private(set) var v1: Node
    private(set) var v2: Node
    private(set) var renamed: [String: String] = [:]
    private(set) var removed: Set<String> = []
    /// Declared moves: the node's id (under version 2) → its new ancestors, from the root's child down.
    private(set) var moved: [String: [String]] = [:]
    private(set) var rewritesContexts = false
    /// Version 2's `max_depth` and `max_copies`, when it lowers them: never below the depth its
    /// declared tree needs, so that only the paths that pushed a screen over itself are cut.
    private(set) var limits: (maxDepth: Int, maxCopies: Int)?
    /// The path, under version 1, to the node version 2 moves: a route there puts it on the saved
    /// active path, where a declared move applies.
    private var movedFrom: [String] = []
    private var count = 0

    init(random: inout SeededRandom) {
        v1 = Node(id: "root")
        v2 = v1
        v1 = tabBar("root", depth: 0, &random)
        v2 = v1
        v2 = mutated(v1, depth: 0, &random)
        move(&random)
        if random.chance(0.25) { limits = (Self.depth(of: v2) + random.below(2), 1 + random.below(2)) }
    }

    /// How many nodes the longest declared chain from `node` down holds.
    static func depth(of node: Node) -> Int {
        1 + (node.children.map { depth(of: $0) }.max() ?? 0)
    }

    // MARK: Version 1

    private mutating func tabBar(_ id: String, depth: Int, _ random: inout SeededRandom) -> Node {
        let tabs = (0..<(2 + random.below(2))).map { _ in screen(depth: depth + 1, underSwitch: true, &random) }
        return Node(id: id, isSwitch: true, children: tabs)
    }

    private mutating func screen(depth: Int, underSwitch: Bool, _ random: inout SeededRandom) -> Node {
        count += 1
        let id = "n\(count)"
        guard depth < 4 else { return Node(id: id) }
        if depth > 1, random.chance(0.15) { return tabBar(id, depth: depth, &random) }
        var node = Node(id: id, pushesItself: !underSwitch && random.chance(0.3))
        for _ in 0..<random.below(3) { node.children.append(screen(depth: depth + 1, underSwitch: false, &random)) }
        return node
    }

    // MARK: Version 2

    /// Renames (declared), removals (declared half the time), changed contexts. The root's tabs
    /// stay (a redirect needs somewhere to go), and a tab bar keeps at least one tab.
    private mutating func mutated(_ node: Node, depth: Int, _ random: inout SeededRandom) -> Node {
        var node = node
        if depth > 0, random.chance(0.2) {
            renamed[node.id] = node.id + "r"
            node.id += "r"
        }
        if random.chance(0.1) { rewritesContexts = true }
        var children: [Node] = []
        for child in node.children {
            if depth > 0, random.chance(0.12), !node.isSwitch || node.children.count > 1 {
                if random.chance(0.5) { removed.insert(child.id) }
                continue
            }
            children.append(mutated(child, depth: depth + 1, &random))
        }
        if node.isSwitch, children.isEmpty, let first = node.children.first {
            removed.remove(first.id)
            children = [mutated(first, depth: depth + 1, &random)]
        }
        node.children = children
        return node
    }

    /// Moves a screen below a screen to under another screen, declared three times in four.
    private mutating func move(_ random: inout SeededRandom) {
        let places = Self.places(in: v2)
        let movable = places.filter { place in
            place.lineage.count >= 3 && !place.node.isSwitch && !(places.first { $0.node.id == place.lineage.last }?.node.isSwitch ?? true)
        }
        guard random.chance(0.7), let moving = random.pick(movable) else { return }
        let targets = places.filter { place in
            !place.node.isSwitch && place.node.id != moving.lineage.last && !place.lineage.contains(moving.node.id)
                && place.node.id != moving.node.id && place.lineage.count > 0
        }
        guard let target = random.pick(targets) else { return }
        let original = Dictionary(renamed.map { ($0.value, $0.key) }, uniquingKeysWith: { first, _ in first })
        movedFrom = (moving.lineage + [moving.node.id]).map { original[$0] ?? $0 }
        v2 = Self.removing(moving.node.id, from: v2)
        v2 = Self.adding(moving.node, under: target.node.id, to: v2)
        if random.chance(0.75) { moved[moving.node.id] = Array(target.lineage.dropFirst()) + [target.node.id] }
    }

    /// Every node with the ids above it, root first.
    static func places(in node: Node, lineage: [String] = []) -> [(node: Node, lineage: [String])] {
        [(node, lineage)] + node.children.flatMap { places(in: $0, lineage: lineage + [node.id]) }
    }

    private static func removing(_ id: String, from node: Node) -> Node {
        var node = node
        node.children = node.children.filter { $0.id != id }.map { removing(id, from: $0) }
        return node
    }

    private static func adding(_ child: Node, under parent: String, to node: Node) -> Node {
        var node = node
        if node.id == parent { node.children.append(child) }
        node.children = node.children.map { adding(child, under: parent, to: $0) }
        return node
    }

    // MARK: Lua

    /// The app's script: version 1, or version 2 with its migration and, when given, a new guard
    /// or a failing handler on the node `on`.
    func source(v2 isV2: Bool, verdict: (Verdict, on: String, redirectTo: String)? = nil) -> String {
        var migration = isV2 ? "version = 2, migrations = { [2] = \(migrationSource) }" : ""
        if isV2, let limits { migration += ", max_depth = \(limits.maxDepth), max_copies = \(limits.maxCopies)" }
        let root = Self.lua(isV2 ? v2 : v1, migration: migration, verdict: verdict)
        // Version 2 also names a new key of the app's state, which every rules change must add.
        // Version 2 adds `credits` and no longer names `coupon`.
        let state = isV2 ? "portolan.initial_state { visits = 0, credits = 5 }" : #"portolan.initial_state { visits = 0, coupon = "v1" }"#
        return """
            \(state)
            entered, left, switched = 0, 0, 0
            local function enter() entered = entered + 1 end
            local function leave() left = left + 1 end
            local function switch() switched = switched + 1 end
            portolan.app \(root)
            """
    }

    private var migrationSource: String {
        let renames = renamed.sorted { $0.key < $1.key }.map { "\($0.key) = \"\($0.value)\"" }.joined(separator: ", ")
        let removals = removed.sorted().map { "\"\($0)\"" }.joined(separator: ", ")
        let moves = moved.sorted { $0.key < $1.key }
            .map { "\($0.key) = { \($0.value.map { "\"\($0)\"" }.joined(separator: ", ")) }" }.joined(separator: ", ")
        let context = rewritesContexts
            ? ", context = function(id, ctx) local new = { v = 2 } for k, v in pairs(ctx) do if k ~= \"id\" then new[k] = v end end return new end"
            : ""
        return "{ renamed = { \(renames) }, removed = { \(removals) }, moved = { \(moves) }\(context) }"
    }

    private static func lua(_ node: Node, migration: String = "", verdict: (Verdict, on: String, redirectTo: String)?) -> String {
        var fields = ["id = \"\(node.id)\""]
        if node.isSwitch { fields.append("kind = \"switch\", keep = true, switch = switch") }
        if node.pushesItself { fields.append("push = { \"\(node.id)\" }") }
        if !migration.isEmpty { fields.append(migration) }
        switch verdict {
        case (.deny, let on, _)? where on == node.id:
            fields.append("guard = function() return portolan.deny(\"the new rule\") end")
        case (.redirect, let on, let target)? where on == node.id:
            fields.append("guard = function() return portolan.redirect { \"root\", \"\(target)\" } end")
        case (.fail, let on, _)? where on == node.id && !node.isSwitch:
            fields.append("enter = function() error(\"the new screen fails\") end, leave = leave")
        default:
            if !node.isSwitch { fields.append("enter = enter, leave = leave") }
        }
        if !node.children.isEmpty {
            fields.append("children = { " + node.children.map { lua($0, verdict: verdict) }.joined(separator: ", ") + " }")
        }
        return "{ " + fields.joined(separator: ", ") + " }"
    }

    /// A few routes of version 1 to random places, with contexts and repeated screens (a tab
    /// left for another keeps its stack), the last one often to the node version 2 moves.
    func routes(_ random: inout SeededRandom) -> String {
        let toMoved = !movedFrom.isEmpty && random.chance(0.6) ? ["portolan.route { \(movedFrom.map { "\"\($0)\"" }.joined(separator: ", ")) }"] : []
        return (0..<(2 + random.below(5))).map { _ in
            var entries = ["\"root\""]
            var node = v1
            while true {
                var options = node.children
                if node.pushesItself { options.append(node) }
                if !node.isSwitch, entries.count > 2, random.chance(0.25) { break }
                guard let next = random.pick(options) else { break }
                entries.append(random.chance(0.3) ? "{ id = \"\(next.id)\", context = { id = \(random.below(9)) } }" : "\"\(next.id)\"")
                node = next
            }
            return "portolan.route { \(entries.joined(separator: ", ")) }"
        }.joined(separator: "\n") + toMoved.map { "\n" + $0 }.joined()
    }
}
