/// The fields of a node table that hold its Lua handlers: the one list of them. The module reads it
/// (as the bridge's `handler_names`), and so do the linter and the checker of node tables.
public enum HandlerName: String, CaseIterable, Sendable {
    case enter
    case leave
    case canLeave = "can_leave"
    case `switch`
    case `guard`
}
