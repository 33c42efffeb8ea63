import Portolan

/// Lua source for values the explorer writes into repro scenarios: strings quoted so that any
/// bytes read back as they were, contexts, entries, destinations and the actions themselves.
enum LuaLiteral {
    static func string(_ text: String) -> String {
        var result = "\""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): result += "\\\""
            case UInt8(ascii: "\\"): result += "\\\\"
            case 0x20..<0x7F: result.unicodeScalars.append(Unicode.Scalar(byte))
            default: result += "\\" + String(byte).leftPadded(3)
            }
        }
        return result + "\""
    }

    static func value(_ value: ContextValue) -> String {
        switch value {
        case .string(let text): string(text)
        case .integer(let integer): "\(integer)"
        case .number(let number): number.isFinite ? "\(number)" : "0"
        case .boolean(let flag): flag ? "true" : "false"
        }
    }

    static func json(_ value: JSONValue) -> String {
        switch value {
        case .null: "nil"
        case .boolean(let flag): flag ? "true" : "false"
        case .integer(let integer): "\(integer)"
        case .number(let number): number.isFinite ? "\(number)" : "0"
        case .string(let text): string(text)
        case .array(let items): "{ " + items.map(json).joined(separator: ", ") + " }"
        case .object(let members): "{ " + members.keys.sorted().map { "[\(string($0))] = \(json(members[$0] ?? .null))" }.joined(separator: ", ") + " }"
        }
    }

    /// `{ id = 1, name = "x" }`, keys sorted.
    static func context(_ context: Context) -> String {
        guard !context.isEmpty else { return "{}" }
        return "{ " + context.keys.sorted().map { "[\(string($0))] = \(value(context[$0] ?? .boolean(false)))" }.joined(separator: ", ") + " }"
    }

    /// `"id"`, or `{ id = "id", context = { … } }` when it has a context.
    static func entry(_ entry: Entry) -> String {
        entry.context.isEmpty ? string(entry.id) : "{ id = \(string(entry.id)), context = \(context(entry.context)) }"
    }

    /// An entry as `portolan.active_entries()` gives it: the context always a table.
    static func activeEntry(_ entry: Entry) -> String {
        "{ id = \(string(entry.id)), context = \(context(entry.context)) }"
    }

    static func destination(_ destination: Destination) -> String {
        switch destination {
        case .path(let entries): "{ " + entries.map(entry).joined(separator: ", ") + " }"
        case .anywhere(let single): entry(single)
        case .push(let pushed, let launch): "{ push = \(entry(pushed))" + (launch.map { ", launch = \(string($0.rawValue))" } ?? "") + " }"
        case .live(let id, let context, let occurrence):
            "{ id = \(string(id)), context = \(self.context(context)), nth = \(occurrence) }"
        }
    }

    /// The repro's helper for a change of the app's state: the value set, then the guards asked again.
    static let setStateFunction = "local function set_state(key, value) portolan.state[key] = value; return portolan.refresh() end"

    /// A Lua expression that performs the action and gives what it returns (a result, or nil and an error).
    static func action(_ action: ExploreAction) -> String {
        switch action {
        case .route(let destination): "portolan.route(\(self.destination(destination)))"
        case .url(let url): "portolan.route(\(string(url)))"
        case .back: "portolan.back()"
        case .refresh: "portolan.refresh()"
        case .resume: "portolan.resume()"
        case .tab(let switchID, let child): "portolan.switch_to(\(string(switchID)), \(string(child)))"
        case .step(let name, let payload): "portolan.step(\(string(name)), \(context(payload)))"
        case .setState(let key, let value):
            "set_state(\(string(key)), \(json(value)))"
        }
    }

    /// What `portolan.plan` takes for a plannable action.
    static func plannedDestination(_ action: ExploreAction) -> String? {
        switch action {
        case .route(let destination): self.destination(destination)
        case .url(let url): string(url)
        default: nil
        }
    }

    /// A long string holding `text` whole: `[==[…]==]` with a level the text does not close.
    static func longString(_ text: String) -> String {
        var level = 0
        while text.contains("]" + String(repeating: "=", count: level) + "]") { level += 1 }
        let equals = String(repeating: "=", count: level)
        return "[\(equals)[\n\(text)]\(equals)]"
    }
}

private extension String {
    func leftPadded(_ length: Int) -> String { count >= length ? self : String(repeating: "0", count: length - count) + self }
}
