/// The fields of a node table that hold its Lua handlers: the one list of them. The module's checker
/// of node tables gets it as its chunk argument, and the linter reads it.
public enum HandlerName: String, CaseIterable, Sendable {
    case enter
    case leave
    case `switch`
    case update
    case move
    case canLeave = "can_leave"
    case `guard`
    case contextTask = "context_task"
}
