import Lua
import Portolan

/// Reading destinations and entries that a script wrote.
///
/// A destination is a list, from the root, of ids or entries (`{ id = "book", context = { id = 42 } }`),
/// the id or entry of a node reachable from anywhere, a push (`{ push = entry, launch = "single_top" }`,
/// with `pop_up_to = id` and `inclusive = true` to go back first), the top screen's context changed
/// in place (`{ update = entry }`, `{ merge = entry }`, with `memory = "remember"` to remember the
/// context it had, as `portolan.push_context` does), the stack edited below its top (`{ reset =
/// path }`, `{ remove = entry }`, `{ replace = entry, with = entry }`) or a live copy (`{ id = "product", nth = 2 }`:
/// the second product of the stack). Anything else is `invalid`, with a message that says what was
/// expected.
extension Destination {
    init(lua value: LuaValue) throws(RouteFailure) {
        switch value {
        case .string:
            self = .anywhere(try Entry(lua: value))
        case .table(let table) where table[.string("push")] != nil:
            self = .push(try Entry(lua: value["push"]), launch: try Self.launchMode(lua: value["launch"]),
                         popUpTo: try Self.popUpTo(lua: value["pop_up_to"], inclusive: value["inclusive"]))
        case .table(let table) where table[.string("update")] != nil:
            self = .update(try Entry(lua: value["update"]), memory: try Self.memory(lua: value["memory"]))
        case .table(let table) where table[.string("merge")] != nil:
            self = .update(try Entry(lua: value["merge"]), merging: true, memory: try Self.memory(lua: value["memory"]))
        case .table(let table) where table[.string("reset")] != nil:
            guard case .path(let entries) = try Destination(lua: value["reset"]) else {
                throw Self.invalid("reset takes a list of ids or entries from the root, as in { reset = { \"root\", \"home\" } }")
            }
            self = .reset(entries)
        case .table(let table) where table[.string("remove")] != nil:
            self = .remove(try Entry(lua: value["remove"]))
        case .table(let table) where table[.string("replace")] != nil:
            guard value["with"] != .nil else {
                throw Self.invalid("replace needs with, the entry to put in its place, as in { replace = \"cart\", with = \"checkout\" }")
            }
            self = .replace(try Entry(lua: value["replace"]), with: try Entry(lua: value["with"]))
        case .table(let table) where table[.string("nth")] != nil:
            let entry = try Entry(lua: value)
            guard case .integer(let nth) = value["nth"], nth >= 1, let occurrence = Int(exactly: nth) else {
                throw Self.invalid("nth must be a whole number from 1, as in { id = \"product\", nth = 2 }; got \(value["nth"])")
            }
            self = .live(entry.id, context: entry.context, occurrence: occurrence)
        case .table(let table) where table[.string("id")] != nil:
            self = .anywhere(try Entry(lua: value))
        case .table:
            guard let elements = value.arrayValue, !elements.isEmpty else {
                throw Self.invalid("a destination list must be a non-empty sequence of ids or entries")
            }
            var entries: [Entry] = []
            for element in elements {
                entries.append(try Entry(lua: element))
            }
            self = .path(entries)
        default:
            throw Self.invalid(
                "a destination is a list of ids or entries from the root, or the id or entry of an anywhere node; got a \(value.typeName)")
        }
    }

    /// An update's `memory` (`ContextMemory`), `keep` when absent.
    private static func memory(lua value: LuaValue) throws(RouteFailure) -> ContextMemory {
        if value == .nil { return .keep }
        guard case .string(let name) = value, let memory = ContextMemory(rawValue: name) else {
            throw invalid("memory is \(ContextMemory.choices); got \(value)")
        }
        return memory
    }

    static func invalid(_ message: String) -> RouteFailure {
        RouteFailure(.invalid, message)
    }

    /// A push's `launch`: nil when absent, else one of `LaunchMode`'s names.
    static func launchMode(lua value: LuaValue) throws(RouteFailure) -> LaunchMode? {
        guard value != .nil else { return nil }
        guard let mode = value.stringValue.flatMap(LaunchMode.init(rawValue:)) else {
            let names = LaunchMode.allCases.map(\.rawValue).joined(separator: ", ")
            throw invalid("launch must be one of \(names); got \(value)")
        }
        return mode
    }

    /// A push's `pop_up_to` (a node id) and `inclusive` (a boolean): nil when `pop_up_to` is absent.
    static func popUpTo(lua id: LuaValue, inclusive: LuaValue) throws(RouteFailure) -> PopUpTo? {
        guard id != .nil else {
            guard inclusive == .nil else { throw invalid("inclusive needs pop_up_to, the node a push goes back to first") }
            return nil
        }
        guard case .string(let node) = id, !node.isEmpty else {
            throw invalid("pop_up_to must be a node id, as in { pop_up_to = \"home\", inclusive = true }; got \(id)")
        }
        switch inclusive {
        case .nil: return PopUpTo(node)
        case .boolean(let flag): return PopUpTo(node, inclusive: flag)
        default: throw invalid("inclusive must be true or false; got \(inclusive)")
        }
    }
}

extension Entry {
    /// An id, or a table `{ id = "...", context = { key = string | number | boolean } }`.
    init(lua value: LuaValue) throws(RouteFailure) {
        switch value {
        case .string(let id):
            self.init(id)
        case .bytes:
            throw Destination.invalid("an id must be valid UTF-8 text")
        case .table(let table):
            guard case .string(let id)? = table[.string("id")] else {
                throw Destination.invalid("an entry needs an id string, as in { id = \"book\", context = { id = 42 } }")
            }
            self.init(id, context: try Self.context(lua: table[.string("context")] ?? .nil, of: id))
        default:
            throw Destination.invalid("an entry is an id string or a table { id =, context = }; got a \(value.typeName)")
        }
    }

    private static func context(lua value: LuaValue, of id: String) throws(RouteFailure) -> Context {
        if value == .nil { return [:] }
        guard case .table(let table) = value else {
            throw Destination.invalid("the context of '\(id)' must be a table, not a \(value.typeName)")
        }
        var context: Context = [:]
        for (key, element) in table {
            guard case .string(let name) = key else {
                throw Destination.invalid("the context of '\(id)' has a \(key.typeName) key; keys must be strings")
            }
            context[name] = try contextValue(lua: element, key: name, of: id)
        }
        return context
    }

    private static func contextValue(lua value: LuaValue, key: String, of id: String) throws(RouteFailure) -> ContextValue {
        switch value {
        case .string(let text): return .string(text)
        case .integer(let integer): return .integer(integer)
        case .number(let number): return .number(number)
        case .boolean(let flag): return .boolean(flag)
        default:
            throw Destination.invalid(
                "context value '\(key)' of '\(id)' is a \(value.typeName); values must be strings, numbers or booleans")
        }
    }
}

extension RouteStep {
    /// A step as the module hands it over, `{ name =, payload = { flat values } }`; nil for nil.
    init?(lua value: LuaValue) throws(RouteFailure) {
        guard value != .nil else { return nil }
        guard case .string(let name) = value["name"], !name.isEmpty else {
            throw RouteFailure(.invalid, "a step needs a name, as in portolan.step(\"movie_picked\", { id = 42 })")
        }
        let entry = try Entry(lua: .table([.string("id"): .string(name), .string("context"): value["payload"]]))
        self.init(name, payload: entry.context)
    }

    /// `portolan.step(name, payload)`'s step, checked as a route's step is.
    init(luaName name: LuaValue, payload: LuaValue) throws(RouteFailure) {
        guard let step = try Self(lua: .table([.string("name"): name, .string("payload"): payload])) else {
            throw RouteFailure(.invalid, "portolan.step expects a step name")
        }
        self = step
    }

    var luaValue: LuaValue {
        .table([.string("name"): .string(name), .string("payload"): payloadTable])
    }

    /// The payload as a Lua table (an empty one when there is none).
    var payloadTable: LuaValue {
        Entry(name, context: payload).contextTable ?? .table([:])
    }
}

extension RouteTarget {
    /// What `portolan.route` and `portolan.plan` accept: a destination, or a URL (a string that
    /// ``ParsedURL/isURL(_:)`` accepts), which the graph's route patterns resolve.
    package init(lua value: LuaValue) throws(RouteFailure) {
        if case .string(let text) = value, ParsedURL.isURL(text) {
            self = .url(text)
        } else if case .bytes = value, let text = value.stringValue, ParsedURL.isURL(text) {
            throw RouteFailure(.invalid, "malformed URL: it is not valid UTF-8")
        } else {
            self = .destination(try Destination(lua: value))
        }
    }
}
