import PortolanLua

// Lints of the handlers a node table declares: fields that are not functions, a switch handler on a
// screen, and functions whose names look like a misspelt handler.

extension AppLinter {
    static let handlerNames = HandlerName.allCases.map(\.rawValue)
    /// Fields a node table may have besides handlers (the root also has `anywhere` and
    /// `case_insensitive_routes`, `rollback`, `max_redirects` and `animate`).
    static let structuralFields: Set<String> = [
        "id", "kind", "active", "children", "route", "keep", "anywhere", "case_insensitive_routes", "rollback",
        "max_redirects", "animate", "history", "queue",
    ]

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
        for (field, type) in node.fields.sorted(by: { $0.key < $1.key }) where type == "function" {
            guard !Self.handlerNames.contains(field), !Self.structuralFields.contains(field),
                let meant = Self.handlerLookalike(field)
            else { continue }
            report(.warning, .unknownHandler, line: line(of: item, field: field),
                   "\(item.label) has a function '\(field)', which Portolan never calls; did you mean '\(meant)'?")
        }
    }

    /// The handler a field name looks like a misspelling of (`on_enter`, `canLeave`, `eneter`).
    static func handlerLookalike(_ field: String) -> String? {
        func normal(_ text: String) -> String { text.lowercased().filter { $0 != "_" && $0 != "-" } }
        let name = normal(field)
        if let exact = handlerNames.first(where: { normal($0) == name }) { return exact }
        let contained = handlerNames.filter { name.contains(normal($0)) }.max { $0.count < $1.count }
        if let contained { return contained }
        guard name.count >= 4 else { return nil }
        return handlerNames.map { ($0, editDistance(name, normal($0))) }.filter { $0.1 <= 2 }.min { $0.1 < $1.1 }?.0
    }
}
