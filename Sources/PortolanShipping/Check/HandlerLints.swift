import PortolanLua

// Lints of the handlers and fields a node table declares: handlers that are not functions or can
// never run (a switch handler on a screen, enter or leave on a switch node's child), and functions
// or fields whose names look like a misspelt handler or field.

extension AppLinter {
    static let handlerNames = HandlerName.allCases.map(\.rawValue)
    /// Fields a node table may have besides handlers (the root also has `anywhere` and its options,
    /// `RootOption`).
    static let structuralFields = Set(["id", "kind", "active", "children", "route", "keep", "back", "anywhere", "push", "launch", "key", "floor"])
        .union(RootOption.allCases.map(\.rawValue))

    mutating func checkHandlers(_ item: Visited) {
        let node = item.node
        guard node.typeName == "table" else { return }
        for handler in Self.handlerNames {
            if let type = node.fields[handler], type != "function" {
                report(.error, .handlerNotFunction, line: line(of: item, field: handler), "the \(handler) handler of \(item.label) is a \(type), not a function")
            }
        }
        if node.fields["switch"] == "function", !node.isSwitch {
            report(.warning, .unknownHandler, line: line(of: item, field: "switch"),
                   "\(item.label) has a switch handler but is not a switch node: it is never called")
        }
        checkManagedChildHandlers(item)
        for (field, type) in node.fields.sorted(by: { $0.key < $1.key }) {
            guard !Self.handlerNames.contains(field), !Self.structuralFields.contains(field) else { continue }
            if type == "function", let meant = Self.lookalike(field, among: Self.handlerNames) {
                report(.warning, .unknownHandler, line: line(of: item, field: field),
                       "\(item.label) has a function '\(field)', which Portolan never calls; did you mean '\(meant)'?")
            } else if type != "function", let meant = Self.lookalike(field, among: Array(Self.structuralFields)) {
                report(.warning, .unknownField, line: line(of: item, field: field),
                       "\(item.label) has a field '\(field)', which Portolan never reads; did you mean '\(meant)'?")
            }
        }
    }

    /// A switch node's children are switched to, never entered or left on their own.
    private mutating func checkManagedChildHandlers(_ item: Visited) {
        guard let parent = item.parent, firstByID[parent]?.node.isSwitch == true else { return }
        for handler in [HandlerName.enter, .leave, .move].map(\.rawValue) where item.node.fields[handler] == "function" {
            report(.warning, .handlerNeverRuns, line: line(of: item, field: handler),
                   "\(item.label) is a child of switch node '\(parent)': it is switched to, never entered, left or moved, so its "
                   + "\(handler) handler never runs; give '\(parent)' a switch handler instead")
        }
    }

    /// The name among `names` that `field` looks like a misspelling of (`on_enter`, `canLeave`,
    /// `eneter`, `kepp`).
    static func lookalike(_ field: String, among names: [String]) -> String? {
        func normal(_ text: String) -> String { text.lowercased().filter { $0 != "_" && $0 != "-" } }
        let name = normal(field)
        if let exact = names.first(where: { normal($0) == name }) { return exact }
        let contained = names.filter { normal($0).count >= 4 && name.contains(normal($0)) }.max { $0.count < $1.count }
        if let contained { return contained }
        guard name.count >= 4 else { return nil }
        // Short names tolerate one slip, longer ones two.
        let tolerance = name.count >= 6 ? 2 : 1
        return names.map { ($0, editDistance(name, normal($0))) }.filter { $0.1 <= tolerance }.sorted { $0.0 < $1.0 }
            .min { $0.1 < $1.1 }?.0
    }
}
