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

    /// The node's id, as an argument.
    func idArgument(in state: LuaState) -> LuaArgument {
        if let pinnedID { return .reference(pinnedID) }
        pinnedID = try? state.pin(.string(id))
        return pinnedID.map(LuaArgument.reference) ?? .value(.string(id))
    }

    /// The name of one of the node's handler fields, as an argument.
    func argument(_ field: HandlerName, in state: LuaState) -> LuaArgument {
        let slot = Self.slot(of: field)
        if let pinned = pinnedFields[slot] { return .reference(pinned) }
        guard let pinned = try? state.pin(.string(field.rawValue)) else { return .value(.string(field.rawValue)) }
        pinnedFields[slot] = pinned
        return .reference(pinned)
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
