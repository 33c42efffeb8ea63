import Lua
import Portolan

/// The root's `explore` option (docs/explore.md), as `portolan explore` reads it: the changes of
/// the app's state to try, example contexts, payloads and URLs, and the nodes where the explorer's
/// expectations do not hold on purpose. The module's checker (`NodeDescription.lua`) refuses a
/// malformed one at the script's line; what it lets through is read here, in a stable order.
public struct ExploreDeclaration: Sendable, Equatable {
    /// Each key of `portolan.state` to change, with the values to try, keys sorted.
    public var state: [(key: String, values: [JSONValue])] = []
    /// Example contexts for routes to each node.
    public var contexts: [NodeID: [Context]] = [:]
    /// Example payloads for each flow step.
    public var payloads: [String: [Context]] = [:]
    /// URLs to try besides the samples derived from the patterns.
    public var urls: [String] = []
    /// Nodes where `back` does not return to where the user came from, on purpose.
    public var back: Set<NodeID> = []
    /// Declared nodes no exploration is meant to reach (shown by the host, say).
    public var unreachable: Set<NodeID> = []

    public init() {}

    public static func == (lhs: ExploreDeclaration, rhs: ExploreDeclaration) -> Bool {
        lhs.state.map(\.key) == rhs.state.map(\.key) && lhs.state.map(\.values) == rhs.state.map(\.values)
            && lhs.contexts == rhs.contexts && lhs.payloads == rhs.payloads && lhs.urls == rhs.urls
            && lhs.back == rhs.back && lhs.unreachable == rhs.unreachable
    }

    /// What the checker let through; nil (no option) is the empty declaration.
    init(lua value: LuaValue) {
        guard case .table = value else { return }
        if case .table(let table) = value["state"] {
            for (key, list) in table {
                guard let key = key.stringValue else { continue }
                let values = (list.arrayValue ?? []).compactMap { try? AppStateValue.json(from: $0) }
                state.append((key, values))
            }
            state.sort { $0.key < $1.key }
        }
        contexts = Self.contextLists(value["contexts"])
        payloads = Self.contextLists(value["payloads"])
        urls = (value["urls"].arrayValue ?? []).compactMap(\.stringValue)
        back = Set((value["back"].arrayValue ?? []).compactMap(\.stringValue))
        unreachable = Set((value["unreachable"].arrayValue ?? []).compactMap(\.stringValue))
    }

    private static func contextLists(_ value: LuaValue) -> [String: [Context]] {
        guard case .table(let table) = value else { return [:] }
        var lists: [String: [Context]] = [:]
        for (key, list) in table {
            guard let name = key.stringValue else { continue }
            lists[name] = (list.arrayValue ?? []).compactMap { item in
                try? Entry(lua: .table([.string("id"): .string(name), .string("context"): item])).context
            }
        }
        return lists
    }
}
