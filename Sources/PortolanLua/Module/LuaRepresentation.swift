import Lua
import Portolan

/// Engine values as scripts see them: plain tables and canonical strings.
extension Entry {
    /// `{ id = "book", context = { id = 42 } }`; the context is always a table, empty when there is none.
    var luaValue: LuaValue {
        .table([.string("id"): .string(id), .string("context"): contextTable ?? .table([:])])
    }

    /// The context as a Lua table; nil when it is empty (a handler's caller skips building it).
    var contextTable: LuaValue? {
        guard !context.isEmpty else { return nil }
        var table: [LuaValue: LuaValue] = [:]
        for (key, value) in context {
            table[.string(key)] = value.luaValue
        }
        return .table(table)
    }
}

extension ContextValue {
    var luaValue: LuaValue {
        switch self {
        case .string(let text): .string(text)
        case .integer(let integer): .integer(integer)
        case .number(let number): .number(number)
        case .boolean(let flag): .boolean(flag)
        }
    }
}

extension Destination {
    /// The list of entries the route goes to (one entry for an anywhere destination).
    var luaValue: LuaValue {
        .array(namedEntries.map(\.luaValue))
    }
}

extension Array where Element == Instruction {
    /// The canonical strings, in order.
    var luaValue: LuaValue {
        .array(map { .string($0.description) })
    }
}

extension RouteFailure {
    /// The fields of a route error; the module gives it its metatable (`__tostring`).
    var luaFields: LuaValue {
        var fields: [LuaValue: LuaValue] = [
            .string("kind"): .string(kind.rawValue),
            .string("message"): .string(message),
            .string("executed"): executed.luaValue,
            .string("stage"): .string(stage.rawValue),
        ]
        if let url { fields[.string("url")] = .string(url) }
        if let redirectChain { fields[.string("redirect_chain")] = .string(redirectChain.rawValue) }
        if let instruction {
            fields[.string("instruction")] = .string(instruction.description)
        }
        if !rolledBack.isEmpty || rollbackFailure != nil {
            fields[.string("rolled_back")] = rolledBack.luaValue
        }
        if let rollbackFailure {
            fields[.string("rollback_error")] = .string(rollbackFailure.description)
        }
        return .table(fields)
    }
}

extension RouteRecord {
    /// What `portolan.history()` lists: `{ destination =, requested =, executed =, ok =, error = }`.
    var luaValue: LuaValue {
        var fields: [LuaValue: LuaValue] = [
            .string("destination"): settled.luaValue,
            .string("requested"): requested.luaValue,
            .string("executed"): executed.luaValue,
            .string("ok"): .boolean(failure == nil),
        ]
        if let failure { fields[.string("error")] = failure.luaFields }
        return .table(fields)
    }
}

extension RouteResult {
    /// What the module's `outcome` takes: `true, instructions` or `false, error fields`.
    var luaValues: [LuaValue] {
        switch self {
        case .success(let executed): [.boolean(true), executed.luaValue]
        case .failure(let failure): [.boolean(false), failure.luaFields]
        }
    }
}

extension RoutePlan {
    /// What the module's `plan_outcome` takes: `true, instructions, details` or `false, error
    /// fields, details`, where details are `{ requested =, destination =, redirects = }` (the
    /// destination it would settle on, and each destination a guard or interceptor sent it to).
    var luaValues: [LuaValue] {
        let details: LuaValue = .table([
            .string("requested"): requested.luaValue, .string("destination"): settled.luaValue,
            .string("redirects"): .array(redirects.map(\.luaValue)),
        ])
        return result.luaValues + [details]
    }
}

extension URLResolution {
    /// What `portolan.match` returns: `{ node =, path = { ids }, params =, query =, query_items =,
    /// fragment =, url =, pattern = }`.
    var luaValue: LuaValue {
        var fields = urlFields
        fields[.string("node")] = .string(node)
        fields[.string("pattern")] = .string(pattern)
        fields[.string("params")] = Entry(node, context: parameters).luaValue["context"]
        let ids: [LuaValue] = destination.namedEntries.map { .string($0.id) }
        fields[.string("path")] = .array(ids)
        return .table(fields)
    }

    /// The fields interceptors and handlers see of the URL a route was asked for: `url`, `query`
    /// (each name to its first value; `true` for a name without `=`), `query_items` (every item in
    /// order, `{ name =, value = }`) and `fragment`.
    var urlFields: [LuaValue: LuaValue] {
        var query: [LuaValue: LuaValue] = [:]
        var items: [LuaValue] = []
        for item in self.query {
            if query[.string(item.name)] == nil {
                query[.string(item.name)] = item.value.map { .string($0) } ?? .boolean(true)
            }
            var fields: [LuaValue: LuaValue] = [.string("name"): .string(item.name)]
            if let value = item.value { fields[.string("value")] = .string(value) }
            items.append(.table(fields))
        }
        var fields: [LuaValue: LuaValue] = [
            .string("url"): .string(url), .string("query"): .table(query), .string("query_items"): .array(items),
        ]
        if let fragment { fields[.string("fragment")] = .string(fragment) }
        return fields
    }
}
