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
    var caseInsensitiveRoutes = false
    /// The root's `version`, when it declares one.
    var version: Int?
    /// The root's `migrations`, what the linter can read of them (not their `context` functions).
    var migrations: [RecordedMigration] = []

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
    var kind: String?
    var active: String?
    var routes: [String] = []
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
        kind = value["kind"].stringValue
        active = value["active"].stringValue
        routes = (value["routes"].arrayValue ?? []).compactMap(\.stringValue)
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
