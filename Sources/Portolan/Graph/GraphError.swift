/// Why a declared graph was refused.
public enum GraphError: Error, Equatable, Sendable {
    case emptyID(parent: NodeID?)
    case duplicateID(NodeID)
    case switchWithoutChildren(NodeID)
    case activeNotAChild(switchNode: NodeID, active: NodeID)
    case activeOnScreen(NodeID)
    /// A node deeper than `NavigationGraph.maximumDepth`.
    case tooDeep(NodeID, limit: Int)
    /// A route pattern that does not parse.
    case invalidRoute(NodeID, pattern: String, reason: String)
    /// Two route patterns that would rank equally for some URL; both are named.
    case ambiguousRoutes(NodeID, pattern: String, otherNode: NodeID, otherPattern: String, reason: String)
    /// A screen's `pushes` names a node that is not declared.
    case unknownPush(NodeID, pushed: NodeID)
    /// A switch node lists nodes to push: its children are switched to, nothing is pushed on it.
    case pushOnSwitch(NodeID)
    /// A screen's `pushes` names the root or a switch node's child, which are never entered on their own.
    case pushOfManaged(NodeID, pushed: NodeID)
    /// A path limit outside the values the engine allows (`PathLimits`).
    case limitOutOfRange(String, value: Int, range: ClosedRange<Int>)
    /// A node's `key` names an empty field, or one field twice.
    case invalidKey(NodeID, field: String)
}

extension GraphError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .emptyID(let parent):
            return parent.map { "a child of '\($0)' has an empty id" } ?? "a node has an empty id"
        case .duplicateID(let id):
            return "the id '\(id)' is declared more than once"
        case .switchWithoutChildren(let id):
            return "switch node '\(id)' has no children; a switch needs one to be active"
        case .activeNotAChild(let switchNode, let active):
            return "switch node '\(switchNode)' names '\(active)' as active, which is not one of its children"
        case .activeOnScreen(let id):
            return "'\(id)' names an active child but is not a switch node"
        case .tooDeep(let id, let limit):
            return "'\(id)' is declared deeper than \(limit) levels"
        case .invalidRoute(let id, let pattern, let reason):
            return "route '\(pattern)' of '\(id)' is invalid: \(reason)"
        case .ambiguousRoutes(let id, let pattern, let otherNode, let otherPattern, let reason):
            return "route '\(pattern)' of '\(id)' and route '\(otherPattern)' of '\(otherNode)' are ambiguous: \(reason)"
        case .unknownPush(let id, let pushed):
            return "'\(id)' pushes '\(pushed)', which is not declared"
        case .pushOnSwitch(let id):
            return "switch node '\(id)' cannot push screens: its children are switched to, nothing is pushed on it"
        case .pushOfManaged(let id, let pushed):
            return "'\(id)' pushes '\(pushed)', which is the root or a switch node's child and is never pushed"
        case .limitOutOfRange(let name, let value, let range):
            return "\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound), not \(value)"
        case .invalidKey(let id, let field):
            let problem = field.isEmpty ? "an empty field" : "'\(Excerpt.of(field))' twice"
            return "'\(id)': key names \(problem); it lists the context fields that make an entry the screen it is"
        }
    }
}
