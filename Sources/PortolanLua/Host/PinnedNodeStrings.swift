import Lua
import Portolan

/// The strings a node's Lua handler calls hand over — the node's id and the names of its handler
/// fields — each pinned in the registry the first time a handler of the node runs, so that a call
/// pushes references instead of strings that Lua would hash and look up afresh on every call. A
/// string that cannot be pinned (the memory limit) goes as a value, as it did before.
final class PinnedNodeStrings {
    let id: NodeID
    private var pinnedID: LuaReference?
    /// By `HandlerName.allCases`' order (an array: hashing the enum would hash its raw string).
    private var pinnedFields = [LuaReference?](repeating: nil, count: HandlerName.allCases.count)

    init(id: NodeID) {
        self.id = id
    }

    /// Pushes the node's id as a call's next argument.
    func pushID(onto arguments: LuaCallArguments, in state: LuaState) throws(LuaError) {
        if pinnedID == nil { pinnedID = try? state.pin(.string(id)) }
        if let pinnedID { return try arguments.push(pinnedID) }
        try arguments.push(.string(id))
    }

    /// Pushes the name of one of the node's handler fields as a call's next argument.
    func push(_ field: HandlerName, onto arguments: LuaCallArguments, in state: LuaState) throws(LuaError) {
        let slot = Self.slot(of: field)
        if pinnedFields[slot] == nil { pinnedFields[slot] = try? state.pin(.string(field.rawValue)) }
        if let pinned = pinnedFields[slot] { return try arguments.push(pinned) }
        try arguments.push(.string(field.rawValue))
    }

    private static func slot(of field: HandlerName) -> Int {
        switch field {
        case .enter: 0
        case .leave: 1
        case .switch: 2
        case .canLeave: 3
        case .guard: 4
        case .contextTask: 5
        }
    }
}
