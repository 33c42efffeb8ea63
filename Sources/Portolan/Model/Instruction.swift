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
    /// Take a screen out of the top stack from below its top screen: what stood on it now stands
    /// on what it stood on, and is neither left nor entered. The screen's `leave` handler is told.
    case remove(Entry)
    /// Put a screen into the top stack directly under the screen `under`, which stays where it is
    /// (what undoes a `remove`). The screen's `enter` handler is told.
    case insert(Entry, under: Entry)
    /// Move a screen of the top stack to stand directly under the screen `under`, or on top when
    /// `under` is nil: nothing is left or entered. The screen's `move` handler is told.
    case move(Entry, under: Entry?)

    /// The node whose handler executes the instruction: the entered or left node, or the switch node.
    public var handlingNode: Entry {
        switch self {
        case .enter(let entry), .leave(let entry), .remove(let entry), .insert(let entry, _), .move(let entry, _):
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
    /// `update book {id=42} -> book {id=42,page=3}`, `remove cart`, `insert cart under checkout`,
    /// `move product {id=7} under cart`, `move product {id=7} to top`.
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
        case .remove(let entry):
            return "remove \(entry)"
        case .insert(let entry, let upper):
            return "insert \(entry) under \(upper)"
        case .move(let entry, let upper):
            return "move \(entry) " + (upper.map { "under \($0)" } ?? "to top")
        }
    }
}
