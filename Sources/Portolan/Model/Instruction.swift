/// One step of a route, as the planner emits it and the router executes it.
public enum Instruction: Hashable, Sendable {
    /// Enter a node on top of the active leaf.
    case enter(Entry)
    /// Leave a node on the active path, and with it everything below it.
    case leave(Entry)
    /// Make `to` the active child of the switch node `switchNode`.
    case `switch`(Entry, to: Entry)
    /// Give a node on the active path another context in place: `to` is the same node as the
    /// entry, and nothing above or below it is left or entered (a screen that is "the same screen"
    /// by its node's key, or the top screen's context set or merged).
    case update(Entry, to: Entry)

    /// The node whose handler executes the instruction: the entered or left node, or the switch node.
    public var handlingNode: Entry {
        switch self {
        case .enter(let entry), .leave(let entry):
            return entry
        case .switch(let switchNode, _):
            return switchNode
        case .update(_, let updated):
            return updated
        }
    }
}

extension Instruction: CustomStringConvertible {
    /// Canonical text: `enter book {id=42}`, `leave node8`, `switch switchNode1 -> node1`,
    /// `update book {id=42} -> book {id=42,page=3}`.
    public var description: String {
        switch self {
        case .enter(let entry):
            return "enter \(entry)"
        case .leave(let entry):
            return "leave \(entry)"
        case .switch(let switchNode, let target):
            return "switch \(switchNode) -> \(target)"
        case .update(let entry, let updated):
            return "update \(entry) -> \(updated)"
        }
    }
}
