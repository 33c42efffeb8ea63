/// Why a change to the live tree was refused; the tree is left as it was.
public enum TreeUpdateError: Error, Equatable, Sendable {
    case malformedEntry(Entry)
    case unknownNode(NodeID)
    case cannotEnter(NodeID, onTopOf: NodeID)
    case notOnActivePath(Entry)
    case managedByParent(Entry)
    case cannotLeaveRoot
    case notASwitch(NodeID)
    case notAChild(NodeID, ofSwitch: NodeID)
    case tooDeep(limit: Int)
    /// The path would hold more copies of the node than the graph's `PathLimits.maxCopies`.
    case tooManyCopies(NodeID, limit: Int)
    /// An update names another node than the entry it updates: only a context changes in place.
    case updateChangesNode(Entry, to: NodeID)
    /// The root's entry names the tree: its context is not changed in place.
    case cannotUpdateRoot
    /// A removal, insertion or move names a screen that is not in the top stack (it stands on a
    /// switch node, or a switch node stands above it).
    case notInTopStack(Entry)
    /// A removal names the top screen, which is left instead.
    case isTopScreen(Entry)
    /// A removal, insertion or move would stand a node on one that neither declares it as a child
    /// nor pushes it.
    case cannotStand(NodeID, onTopOf: NodeID)
}

extension TreeUpdateError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .malformedEntry(let entry):
            return "malformed entry '\(entry)': ids must be non-empty and numbers finite"
        case .unknownNode(let id):
            return "no node '\(Excerpt.of(id))' is declared"
        case .cannotEnter(let id, let leaf):
            return "'\(id)' cannot be entered on top of '\(leaf)': it is not declared as its child"
        case .notOnActivePath(let entry):
            return "'\(entry)' is not on the active path"
        case .managedByParent(let entry):
            return "'\(entry)' is managed by its switch node and cannot be left on its own"
        case .cannotLeaveRoot:
            return "the root cannot be left"
        case .notASwitch(let id):
            return "'\(id)' is not a switch node on the active path"
        case .notAChild(let child, let switchNode):
            return "'\(child)' is not a child of switch node '\(switchNode)'"
        case .tooDeep(let limit):
            return "the active path would be deeper than \(limit) levels"
        case .tooManyCopies(let id, let limit):
            return "the active path would hold more than \(limit) copies of '\(Excerpt.of(id))' (max_copies)"
        case .updateChangesNode(let entry, let id):
            return "'\(entry)' cannot be updated to '\(Excerpt.of(id))': an update changes a context, not the node"
        case .cannotUpdateRoot:
            return "the root's context cannot be updated"
        case .notInTopStack(let entry):
            return "'\(entry)' is not a screen of the top stack: only a screen that stands on a screen, with only screens above it, is removed, put in or moved"
        case .isTopScreen(let entry):
            return "'\(entry)' is the top screen: it is left, not removed"
        case .cannotStand(let upper, let lower):
            return "'\(Excerpt.of(upper))' cannot stand on '\(Excerpt.of(lower))': it is neither declared as its child nor pushed by it"
        }
    }
}
