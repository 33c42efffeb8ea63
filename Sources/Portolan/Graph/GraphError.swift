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
        }
    }
}
