/// A plan with what the planner resolved for each of its steps, stamped with the generation of
/// the tree it was planned from (`TreeGeneration`).
///
/// `RoutingTree.apply(_:step:)` applies a step: on the tree the plan was made from, as the plan's
/// earlier steps left it, it uses the node the planner found instead of looking the id up and
/// validating the step again; on any other tree (one something else changed meanwhile) it
/// validates the instruction exactly as `apply(_:)` does, so a stale plan is refused as before.
public struct PlannedRoute: Sendable {
    /// The instructions, in order: what `Planner.plan` returns.
    public let instructions: [Instruction]
    /// What the planner resolved for each instruction, by position.
    let steps: [PlannedStep]
    /// The generation of the tree the plan was made from: what its first step expects.
    let startGeneration: UInt64
    /// The generation the tree has after step 0; step `i` leaves it at `firstReserved + i`.
    let firstReserved: UInt64

    init(instructions: [Instruction], steps: [PlannedStep], from generation: UInt64) {
        self.instructions = instructions
        self.steps = steps
        startGeneration = generation
        firstReserved = instructions.isEmpty ? generation : TreeGeneration.reserve(instructions.count)
    }

    /// The generation the tree must have for step `index` to skip its validation.
    @inline(__always)
    func generation(before index: Int) -> UInt64 {
        index == 0 ? startGeneration : firstReserved &+ UInt64(truncatingIfNeeded: index - 1)
    }

    /// The generation the tree has once step `index` is applied.
    @inline(__always)
    func generation(after index: Int) -> UInt64 {
        firstReserved &+ UInt64(truncatingIfNeeded: index)
    }
}

/// What the planner resolved for one instruction.
struct PlannedStep: Sendable {
    /// The instruction's case, read without copying the instruction's entries.
    enum Kind: UInt8, Sendable {
        case enter, leave, `switch`, update, remove, insert, move
    }

    let kind: Kind
    /// The graph index of the node whose handler executes the instruction (`handlingNode`).
    let node: Int
    /// Where the instruction acts: the depth an entered node stands at, of a left, updated or
    /// removed node, where an inserted or moved one comes to stand, or of the switch node that
    /// switches.
    let depth: Int
    /// For a switch, the graph index of the child switched to; for an enter, the entered node's.
    let target: Int
}
