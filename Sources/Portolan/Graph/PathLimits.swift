/// How far an app lets its paths grow: the deepest active path, and the most copies of one node on
/// a path (screens that can repeat: pushed ones and those reachable from anywhere).
///
/// The planner refuses a route past either limit before anything runs, and the tree refuses a
/// report (`didEnter`) past it, so that a loop of pushes ends in a clean failure naming the limit.
/// The default of both is the engine's own bound (`NavigationGraph.maximumDepth`), which an app may
/// lower, never raise: that bound keeps every walk along a path within a thread's stack.
public struct PathLimits: Sendable, Equatable {
    /// How many nodes the active path may hold, from the root to the leaf.
    public let maxDepth: Int
    /// How many copies of one node one path may hold.
    public let maxCopies: Int

    /// The values `maxDepth` may take (the root option `max_depth`).
    public static let depthRange = 2...NavigationGraph.maximumDepth
    /// The values `maxCopies` may take (the root option `max_copies`).
    public static let copiesRange = 1...NavigationGraph.maximumDepth

    /// The engine's bounds, which every app has unless it declares smaller ones.
    public static let engine = PathLimits(checkedDepth: NavigationGraph.maximumDepth, copies: NavigationGraph.maximumDepth)

    /// Limits within `depthRange` and `copiesRange`; anything else is refused.
    public init(maxDepth: Int = NavigationGraph.maximumDepth, maxCopies: Int = NavigationGraph.maximumDepth) throws(GraphError) {
        guard Self.depthRange.contains(maxDepth) else {
            throw .limitOutOfRange("max_depth", value: maxDepth, range: Self.depthRange)
        }
        guard Self.copiesRange.contains(maxCopies) else {
            throw .limitOutOfRange("max_copies", value: maxCopies, range: Self.copiesRange)
        }
        self.init(checkedDepth: maxDepth, copies: maxCopies)
    }

    private init(checkedDepth: Int, copies: Int) {
        maxDepth = checkedDepth
        maxCopies = copies
    }

    /// Whether copies need counting at all: a path can never hold more copies than nodes.
    var countsCopies: Bool { maxCopies < maxDepth - 1 }

    /// Why a path of `depth` nodes is refused.
    func depthMessage(_ depth: Int) -> String {
        "the active path would be \(depth) levels deep, more than the app's limit of \(maxDepth) (max_depth)"
    }

    /// Why a path holding `copies` copies of `id` is refused.
    func copiesMessage(_ copies: Int, of id: NodeID) -> String {
        "the active path would hold \(copies) copies of '\(Excerpt.of(id))', more than the app's limit of \(maxCopies) (max_copies)"
    }
}
