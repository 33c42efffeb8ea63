import Lua
import Portolan

/// The strings a node's Lua handler calls hand over — the node's id and the names of its handler
/// fields — each pinned in the registry the first time a handler of the node runs, so that a call
/// pushes references instead of strings that Lua would hash and look up afresh on every call. A
/// string that cannot be pinned (the memory limit) goes as a value, as it did before.
///
/// Unchecked, as `HostCore`: its pins are made and read only on the host's thread, by the handler
/// calls the router makes there one at a time.
final class PinnedNodeStrings: @unchecked Sendable {
    let id: NodeID
    private var pinnedID: LuaReference?
    /// By `HandlerName.allCases`' order (an array: hashing the enum would hash its raw string).
    private var pinnedFields = [LuaReference?](repeating: nil, count: HandlerName.allCases.count)

    init(id: NodeID) {
        self.id = id
    }

    /// Pushes the node's id as a call's next argument.
    func pushID(onto arguments: LuaCallArguments, in state: LuaState) throws(LuaError) {
        if let pinnedID { return try arguments.push(pinnedID) }
        try Self.push(id, pinnedIn: &pinnedID, onto: arguments, in: state)
    }

    /// Pushes the name of one of the node's handler fields as a call's next argument.
    func push(_ field: HandlerName, onto arguments: LuaCallArguments, in state: LuaState) throws(LuaError) {
        let slot = Self.slot(of: field)
        // The pin is read first: the usual call then neither changes the array in place (a
        // uniqueness check and a write access) nor makes the field's name, about 150 instructions
        // a push (callgrind).
        if let pinned = pinnedFields[slot] { return try arguments.push(pinned) }
        try Self.push(field.rawValue, pinnedIn: &pinnedFields[slot], onto: arguments, in: state)
    }

    /// Pushes `text` by its reference in `pinned`, pinning it there first if it is not yet; as a
    /// value when it cannot be pinned.
    private static func push(
        _ text: String, pinnedIn pinned: inout LuaReference?, onto arguments: LuaCallArguments, in state: LuaState
    ) throws(LuaError) {
        if pinned == nil { pinned = try? state.pin(.string(text)) }
        if let pinned { return try arguments.push(pinned) }
        try arguments.push(.string(text))
    }

    private static func slot(of field: HandlerName) -> Int {
        switch field {
        case .enter: 0
        case .leave: 1
        case .switch: 2
        case .canLeave: 3
        case .guard: 4
        case .contextTask: 5
        case .update: 6
        case .move: 7
        }
    }
}
