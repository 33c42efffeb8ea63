import Synchronization

/// Which state of a routing tree something was worked out from: every change of a tree gives it a
/// generation no tree in the process has had, so an equal generation means the very state a plan
/// was made from (the tree itself or an unchanged copy of it), and `RoutingTree.apply(_:step:)`
/// can trust what the planner resolved instead of looking it up and validating it again.
///
/// The values come from one process-wide counter: two copies of a tree that change apart, or two
/// trees of different graphs, never share one. A plan reserves one value per step at once, so the
/// tree a planned step leaves has the generation the plan's next step expects, and no other plan's.
enum TreeGeneration {
    private static let counter = Atomic<UInt64>(1)

    /// A generation never handed out before.
    static func next() -> UInt64 {
        counter.wrappingAdd(1, ordering: .relaxed).oldValue
    }

    /// The first of `count` consecutive generations never handed out before.
    static func reserve(_ count: Int) -> UInt64 {
        counter.wrappingAdd(UInt64(max(count, 1)), ordering: .relaxed).oldValue
    }
}
