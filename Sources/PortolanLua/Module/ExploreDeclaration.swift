import Lua
import Portolan

/// The root's `explore` option (docs/explore.md), as `portolan explore` reads it: the changes of
/// the app's state to try, example contexts, payloads and URLs, and the nodes where the explorer's
/// expectations do not hold on purpose. Read here once, in a stable order, for the module (which
/// raises a malformed one at the script's line) and the linter.
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

    static let fields = ["state", "contexts", "payloads", "urls", "back", "unreachable"]

    /// The option as the script wrote it, checked; nil (no option) is the empty declaration.
    init(lua value: LuaValue) throws(DeclarationError) {
        guard value != .nil else { return }
        guard case .table(let table) = value else {
            throw DeclarationError(message: "explore must be a table such as { state = { logged_in = { true, false } } }")
        }
        try DeclaredValue.refuseUnknownFields(of: table, in: Self.fields, at: "explore")
        if let keys = table[.string("state")] {
            for (key, list) in try DeclaredValue.named(keys, at: "explore.state") {
                state.append((key, try Self.stateValues(list, at: "explore.state.\(key)")))
            }
        }
        if let lists = table[.string("contexts")] { contexts = try Self.contextLists(lists, at: "explore.contexts") }
        if let lists = table[.string("payloads")] { payloads = try Self.contextLists(lists, at: "explore.payloads") }
        if let list = table[.string("urls")] {
            guard case .table = list else { throw DeclarationError(message: "explore.urls must be a list of URLs") }
            for (index, url) in DeclaredValue.items(list).enumerated() {
                guard case .string(let text) = url else {
                    throw DeclarationError(message: "explore.urls[\(index + 1)] must be a URL, not \(DeclaredValue.key(url))")
                }
                urls.append(text)
            }
        }
        if let list = table[.string("back")] { back = Set(try DeclaredValue.ids(list, at: "explore.back")) }
        if let list = table[.string("unreachable")] { unreachable = Set(try DeclaredValue.ids(list, at: "explore.unreachable")) }
    }

    /// The node ids it names, by field, sorted: the keys of `contexts`, and `back` and `unreachable`,
    /// which `portolan check` holds against the app's nodes.
    package var namedNodes: [(field: String, id: NodeID)] {
        (contexts.keys.map { ("contexts", $0) } + back.map { ("back", $0) } + unreachable.map { ("unreachable", $0) })
            .sorted { $0.0 == $1.0 ? $0.1 < $1.1 : $0.0 < $1.0 }
    }

    /// The values one key of the app's state takes (`explore.state.logged_in = { true, false }`).
    private static func stateValues(_ list: LuaValue, at field: String) throws(DeclarationError) -> [JSONValue] {
        let items = DeclaredValue.items(list)
        guard case .table = list, !items.isEmpty else {
            throw DeclarationError(message: "\(field) must be a list of the values to try, such as { true, false }")
        }
        var values: [JSONValue] = []
        for (index, item) in items.enumerated() {
            let value: JSONValue? = switch item {
            case .string, .integer, .number, .boolean: try? AppStateValue.json(from: item)
            default: nil
            }
            guard let value else {
                throw DeclarationError(message: "\(field)[\(index + 1)] must be a string, a number or a boolean, not a \(item.typeName)")
            }
            values.append(value)
        }
        return values
    }

    /// Example contexts (or payloads) by node (or step): lists of flat tables.
    private static func contextLists(_ value: LuaValue, at field: String) throws(DeclarationError) -> [String: [Context]] {
        var lists: [String: [Context]] = [:]
        for (name, list) in try DeclaredValue.named(value, at: field) {
            let at = "\(field).\(name)"
            guard case .table = list else { throw DeclarationError(message: "\(at) must be a list of tables such as { { id = 1 } }") }
            var contexts: [Context] = []
            for (index, item) in DeclaredValue.items(list).enumerated() {
                guard case .table = item else {
                    throw DeclarationError(message: "\(at)[\(index + 1)] must be a table, not a \(item.typeName)")
                }
                do {
                    contexts.append(try Entry(lua: .table([.string("id"): .string(name), .string("context"): item])).context)
                } catch {
                    throw DeclarationError(message: "\(at)[\(index + 1)] must map names to strings, numbers or booleans")
                }
            }
            lists[name] = contexts
        }
        return lists
    }
}
