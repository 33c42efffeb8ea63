/// How the document writes and reads the engine's values: entries, contexts, destinations and
/// instructions, each as one JSON shape (docs/snapshots.md, "Fields").
package enum SnapshotFields {
    // MARK: Entries

    static func entryMembers(_ entry: Entry) -> [String: JSONValue] {
        var members: [String: JSONValue] = ["id": .string(entry.id)]
        if !entry.context.isEmpty { members["context"] = context(entry.context) }
        return members
    }

    package static func entry(_ entry: Entry) -> JSONValue { .object(entryMembers(entry)) }

    package static func entry(_ json: JSONValue, path: String) throws(SnapshotError) -> Entry {
        guard let members = json.objectValue else { throw .field(path, "an object") }
        return try entry(members, path: path)
    }

    static func entry(_ members: [String: JSONValue], path: String) throws(SnapshotError) -> Entry {
        guard let id = members["id"]?.stringValue, !id.isEmpty else { throw .field(path + ".id", "a non-empty string") }
        guard let saved = members["context"] else { return Entry(id) }
        return Entry(id, context: try context(saved, path: path + ".context"))
    }

    // MARK: Contexts

    static func context(_ context: Context) -> JSONValue {
        .object(context.mapValues { value in
            switch value {
            case .string(let string): .string(string)
            case .integer(let integer): .integer(integer)
            case .number(let number): .number(normalizing: number)
            case .boolean(let flag): .boolean(flag)
            }
        })
    }

    static func context(_ json: JSONValue, path: String) throws(SnapshotError) -> Context {
        guard let members = json.objectValue, !members.isEmpty else { throw .field(path, "a non-empty object") }
        var context: Context = [:]
        for (key, value) in members {
            switch value {
            case .string(let string): context[key] = .string(string)
            case .integer(let integer): context[key] = .integer(integer)
            case .number(let number) where number.isFinite: context[key] = .number(number)
            case .boolean(let flag): context[key] = .boolean(flag)
            default: throw .field("\(path).\(key)", "a string, a finite number or a boolean")
            }
        }
        return context
    }

    // MARK: Destinations

    static func destination(_ destination: Destination) -> JSONValue {
        switch destination {
        case .path(let entries):
            return .object(["path": .array(entries.map(entry))])
        case .anywhere(let target):
            return .object(["anywhere": entry(target)])
        case .push(let target, let launch, let popUpTo):
            var members: [String: JSONValue] = ["push": entry(target)]
            if let launch { members["launch"] = .string(launch.rawValue) }
            if let popUpTo {
                members["pop_up_to"] = .string(popUpTo.id)
                if popUpTo.inclusive { members["inclusive"] = .boolean(true) }
            }
            return .object(members)
        case .live(let id, let context, let occurrence):
            var members: [String: JSONValue] = ["live": .string(id), "occurrence": .integer(Int64(occurrence))]
            if !context.isEmpty { members["context"] = self.context(context) }
            return .object(members)
        case .update(let target, let merging, let memory):
            var members: [String: JSONValue] = [merging ? "merge" : "update": entry(target)]
            if memory != .keep { members["memory"] = .string(memory.rawValue) }
            return .object(members)
        case .reset(let entries):
            return .object(["reset": .array(entries.map(entry))])
        case .remove(let target):
            return .object(["remove": entry(target)])
        case .replace(let target, let replacement):
            return .object(["replace": entry(target), "with": entry(replacement)])
        }
    }

    /// An update's `memory`, `keep` when absent.
    private static func memory(_ json: JSONValue?, path: String) throws(SnapshotError) -> ContextMemory {
        guard let json else { return .keep }
        guard let memory = json.stringValue.flatMap(ContextMemory.init(rawValue:)) else {
            throw .field(path, ContextMemory.choices)
        }
        return memory
    }

    /// A destination read back. `record`: one of the history's, where a request refused before it
    /// named any destination (a URL that led nowhere) is recorded as the empty path.
    static func destination(_ json: JSONValue, path: String, record: Bool = false) throws(SnapshotError) -> Destination {
        guard let members = json.objectValue else { throw .field(path, "an object") }
        if let entries = members["path"] { return .path(try self.entries(entries, path: path + ".path", record: record)) }
        if let entries = members["reset"] { return .reset(try self.entries(entries, path: path + ".reset", record: false)) }
        if let target = members["anywhere"] { return .anywhere(try entry(target, path: path + ".anywhere")) }
        if let target = members["push"] { return try push(target, members, path: path) }
        if let target = members["update"] ?? members["merge"] {
            let merging = members["update"] == nil
            return .update(try entry(target, path: path + (merging ? ".merge" : ".update")), merging: merging,
                           memory: try memory(members["memory"], path: path + ".memory"))
        }
        if let target = members["remove"] { return .remove(try entry(target, path: path + ".remove")) }
        if let target = members["replace"], let replacement = members["with"] {
            return .replace(try entry(target, path: path + ".replace"), with: try entry(replacement, path: path + ".with"))
        }
        if let id = members["live"]?.stringValue, !id.isEmpty {
            guard let occurrence = members["occurrence"]?.integerValue.flatMap({ Int(exactly: $0) }), occurrence >= 1 else {
                throw .field(path + ".occurrence", "a positive integer")
            }
            let context = try members["context"].map { value throws(SnapshotError) in try self.context(value, path: path + ".context") }
            return .live(id, context: context ?? [:], occurrence: occurrence)
        }
        throw .field(path, "a destination (path, anywhere, push, live, update, merge, reset, remove, or replace with with)")
    }

    /// A path's entries read back: non-empty unless `record` (see `destination(_:path:record:)`).
    private static func entries(_ json: JSONValue, path: String, record: Bool) throws(SnapshotError) -> [Entry] {
        guard let list = json.arrayValue, record || !list.isEmpty, list.count <= NavigationGraph.maximumDepth else {
            throw .field(path, record ? "an array of entries" : "a non-empty array of entries")
        }
        var saved: [Entry] = []
        for (index, element) in list.enumerated() {
            saved.append(try entry(element, path: "\(path)[\(index)]"))
        }
        return saved
    }

    /// A push read back: `{ push =, launch =, pop_up_to =, inclusive = }`.
    private static func push(_ target: JSONValue, _ members: [String: JSONValue], path: String) throws(SnapshotError) -> Destination {
        var launch: LaunchMode?
        if let name = members["launch"] {
            guard let mode = name.stringValue.flatMap(LaunchMode.init(rawValue:)) else {
                throw .field(path + ".launch", "a launch mode")
            }
            launch = mode
        }
        var popUpTo: PopUpTo?
        if let id = members["pop_up_to"] {
            guard let id = id.stringValue, !id.isEmpty else { throw .field(path + ".pop_up_to", "a node id") }
            switch members["inclusive"] {
            case nil: popUpTo = PopUpTo(id)
            case .boolean(let inclusive)?: popUpTo = PopUpTo(id, inclusive: inclusive)
            default: throw .field(path + ".inclusive", "a boolean")
            }
        }
        return .push(try entry(target, path: path + ".push"), launch: launch, popUpTo: popUpTo)
    }

    // MARK: Instructions

    static func instruction(_ instruction: Instruction) -> JSONValue {
        switch instruction {
        case .enter(let target): .object(["enter": entry(target)])
        case .leave(let target): .object(["leave": entry(target)])
        case .switch(let node, let target): .object(["switch": entry(node), "to": entry(target)])
        case .update(let target, let updated): .object(["update": entry(target), "to": entry(updated)])
        case .remove(let target): .object(["remove": entry(target)])
        case .insert(let target, let upper): .object(["insert": entry(target), "under": entry(upper)])
        case .move(let target, let upper?): .object(["move": entry(target), "under": entry(upper)])
        case .move(let target, nil): .object(["move": entry(target)])
        }
    }

    static func instruction(_ json: JSONValue, path: String) throws(SnapshotError) -> Instruction {
        guard let members = json.objectValue else { throw .field(path, "an object") }
        if let target = members["enter"] { return .enter(try entry(target, path: path + ".enter")) }
        if let target = members["leave"] { return .leave(try entry(target, path: path + ".leave")) }
        if let node = members["switch"], let target = members["to"] {
            return .switch(try entry(node, path: path + ".switch"), to: try entry(target, path: path + ".to"))
        }
        if let target = members["update"], let updated = members["to"] {
            return .update(try entry(target, path: path + ".update"), to: try entry(updated, path: path + ".to"))
        }
        if let target = members["remove"] { return .remove(try entry(target, path: path + ".remove")) }
        if let target = members["insert"], let upper = members["under"] {
            return .insert(try entry(target, path: path + ".insert"), under: try entry(upper, path: path + ".under"))
        }
        if let target = members["move"] {
            let upper = try members["under"].map { value throws(SnapshotError) in try entry(value, path: path + ".under") }
            return .move(try entry(target, path: path + ".move"), under: upper)
        }
        throw .field(path, "an instruction (enter, leave, remove, move, switch or update with to, insert with under)")
    }
}
