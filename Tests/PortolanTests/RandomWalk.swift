@testable import Portolan
import TestSupport

struct Refusal: Error {}

/// What `canLeave` answers during one route.
enum Veto: CustomStringConvertible {
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

    var expectedKind: RouteFailure.Kind {
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

/// A random walk over one live tree (PlannerPropertyTests): random routes and host reports, each
/// checked against an oracle written from DESIGN.md ("The model", "The planner"), not from the
/// planner's code. Its routes are in RandomWalkRoutes.swift, its host reports in
/// RandomWalkHostReports.swift, its random destinations in RandomDestinations.swift.
struct RandomWalk {
    enum Mix {
        case routesOnly, withHostReports, withVetoes, everything
    }

    let shape: RandomGraph
    let mix: Mix
    var tree: RoutingTree
    var random: SeededRandom
    /// The steps so far, with what each did: what a failure prints.
    var trace: [String] = []

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
