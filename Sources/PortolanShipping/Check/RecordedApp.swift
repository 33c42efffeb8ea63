import PortolanLua
import Lua

/// What an app script declared, as the linter's host recorded it: every node table as written,
/// mistakes included, with the line of its `id` field.
struct RecordedApp {
    /// The root node table given to the last `portolan.app` call.
    var root: RecordedNode
    var anywhere: [RecordedNode] = []
    /// The type of the root's `anywhere` field when it is not a table (nil when absent or a table).
    var anywhereType: String?
    /// Where the last `portolan.app` call is: the line given to nodes whose table has no line.
    var appLine: Int
    /// How many times the script called `portolan.app` (the last one counts).
    var appCount: Int
    /// The engine's reason when it refused the graph.
    var declarationError: String?
    var redirectRules: [RecordedRule] = []
    /// Redirect rules given as Lua functions: the linter cannot know where they send a URL.
    var functionRuleCount = 0
    /// The root's options, read as `portolan.app` reads them (`AppOptions`): one that is wrong
    /// keeps its default, and what is wrong with it is in `optionMistakes`.
    var options = AppOptions()
    var optionMistakes: [RootOption: String] = [:]

    /// Every node table, root tree first then anywhere trees, parents before children.
    var allNodes: [RecordedNode] {
        var nodes: [RecordedNode] = []
        func visit(_ node: RecordedNode) {
            nodes.append(node)
            node.children?.forEach(visit)
        }
        visit(root)
        anywhere.forEach(visit)
        return nodes
    }
}

struct RecordedNode {
    /// The Lua type of the value where a node table was expected.
    var typeName: String
    var line: Int?
    /// The id when it is a string.
    var id: String?
    /// Each string-keyed field and the Lua type of its value.
    var fields: [String: String] = [:]
    /// Each string-keyed field holding a string, a number or a boolean, and its value.
    var values: [String: PlainValue] = [:]
    var kind: String?
    var active: String?
    var routes: [String] = []
    /// What the node's route list says of case and a final slash.
    var routeOptions = RouteOptions.app
    /// The ids of the nodes it may push (`push`), those that are strings.
    var pushes: [String] = []
    /// The type of a `route` element that is not a string.
    var badRouteType: String?
    /// Nil when `children` is absent or not a table.
    var children: [RecordedNode]?
    /// A table that contains itself.
    var isCycle = false
    var isAnywhere = false

    var isSwitch: Bool { kind == "switch" }

    init(lua value: LuaValue, isAnywhere: Bool = false) {
        typeName = value["type"].stringValue ?? "nil"
        line = value["line"].intValue.map { Int($0) }
        id = value["id"].stringValue
        for (key, type) in value["fields"].tableValue ?? [:] {
            if let key = key.stringValue, let type = type.stringValue { fields[key] = type }
        }
        for (key, item) in value["values"].tableValue ?? [:] {
            if let key = key.stringValue, let plain = PlainValue(item) { values[key] = plain }
        }
        kind = value["kind"].stringValue
        active = value["active"].stringValue
        routes = (value["routes"].arrayValue ?? []).compactMap(\.stringValue)
        routeOptions = RouteOptions(
            caseInsensitive: value["route_case_insensitive"].boolValue,
            significantTrailingSlash: value["route_significant_trailing_slash"].boolValue)
        pushes = (value["pushes"].arrayValue ?? []).compactMap(\.stringValue)
        badRouteType = value["bad_route"].stringValue
        children = value["children"].arrayValue.map { $0.map { RecordedNode(lua: $0, isAnywhere: isAnywhere) } }
        isCycle = value["cycle"] == .boolean(true)
        self.isAnywhere = isAnywhere
    }

    /// How messages name the node.
    var name: String {
        id.map { "'\($0)'" } ?? "a node without an id"
    }
}

/// A `portolan.redirect_rule(pattern, template)` the script made.
struct RecordedRule {
    var from: String
    var to: String
    var file: String?
    var line: Int
}

/// A field's value that is a string, a number or a boolean, as the script wrote it.
enum PlainValue: Equatable, Sendable, CustomStringConvertible {
    case string(String)
    case integer(Int64)
    case number(Double)
    case boolean(Bool)

    init?(_ value: LuaValue) {
        switch value {
        case .string(let text): self = .string(text)
        case .integer(let number): self = .integer(number)
        case .number(let number): self = .number(number)
        case .boolean(let flag): self = .boolean(flag)
        default: return nil
        }
    }

    var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    var doubleValue: Double? {
        switch self {
        case .integer(let number): Double(number)
        case .number(let number): number
        default: nil
        }
    }

    /// As messages quote it: `"latest-wins"` (cut at 80 bytes), `12`, `true`.
    var description: String {
        switch self {
        case .string(let text): "\"\(Excerpt.cut(text, toBytes: 80))\""
        case .integer(let number): "\(number)"
        case .number(let number): "\(number)"
        case .boolean(let flag): "\(flag)"
        }
    }
}
