// Lints of the node tables themselves: their fields and kinds, duplicate ids, and the active child each
// switch node names.

extension AppLinter {
    mutating func checkStructure(_ item: Visited) {
        let node = item.node, line = item.line
        guard node.typeName == "table" else {
            report(.error, .invalidNode, line: line, "\(item.label) must be a node table, not a \(node.typeName)")
            return
        }
        if node.isCycle {
            report(.error, .invalidNode, line: line, "the node table of \(item.label) contains itself")
            return
        }
        if node.id == nil {
            let type = node.fields["id"]
            report(.error, .invalidNode, line: line,
                   type.map { "\(item.label) has an id that is a \($0); an id is a non-empty string" } ?? "\(item.label) has no id")
        } else if node.id == "" {
            report(.error, .invalidNode, line: line, "\(item.label) has an empty id; an id is a non-empty string")
        }
        if let kind = node.kind, kind != "screen", kind != "switch" {
            report(.error, .invalidNode, line: self.line(of: item, field: "kind"), "\(item.label): kind must be \"screen\" or \"switch\", not '\(kind)'")
        }
        if let type = node.fields["active"], type != "string" {
            report(.error, .invalidNode, line: self.line(of: item, field: "active"), "\(item.label): active must be a child's id, not a \(type)")
        }
        if let type = node.fields["children"], type != "table" {
            report(.error, .invalidNode, line: self.line(of: item, field: "children"), "\(item.label): children must be a list of node tables, not a \(type)")
        }
        if let type = node.fields["route"], type != "string", type != "table" {
            report(.error, .invalidRoute, line: self.line(of: item, field: "route"), "\(item.label): route must be a URL pattern or a list of them, not a \(type)")
        } else if let type = node.badRouteType {
            report(.error, .invalidRoute, line: self.line(of: item, field: "route"), "\(item.label): route lists a \(type); each route is a URL pattern string")
        }
        if node.isSwitch {
            if (node.children ?? []).isEmpty {
                report(.error, .invalidNode, line: line, "switch node \(item.label) has no children; a switch needs one to be active")
            }
        } else if node.active != nil, node.kind == nil || node.kind == "screen" {
            report(.error, .activeNotChild, line: self.line(of: item, field: "active"),
                   "\(item.label) names '\(node.active ?? "")' as active but is not a switch node; only a switch node (kind = \"switch\") has an active child")
        }
    }

    mutating func checkDuplicates() {
        var seen: [String: Visited] = [:]
        for item in visited {
            guard let id = item.node.id, !id.isEmpty, !item.node.isCycle else { continue }
            if let first = seen[id] {
                let place = first.line == item.line ? "by the same table, at line \(first.line)" : "at line \(first.line)"
                report(.error, .duplicateID, line: item.line, "duplicate id '\(id)' (first declared \(place))")
            } else {
                seen[id] = item
            }
        }
    }

    mutating func checkActive() {
        for item in visited where item.node.isSwitch {
            guard let active = item.node.active else { continue }
            let children = (item.node.children ?? []).compactMap(\.id)
            guard !children.contains(active) else { continue }
            let childList = children.isEmpty ? "it has none" : "its children are " + children.map { "'\($0)'" }.joined(separator: ", ")
            let elsewhere: String
            if let other = firstByID[active] {
                elsewhere = other.parent.map { "'\(active)' is a child of '\($0)'" }
                    ?? (other.anywhereAncestor != nil ? "'\(active)' is an anywhere node" : "'\(active)' is the root")
            } else {
                elsewhere = "no node '\(active)' is declared" + suggestion(for: active)
            }
            report(.error, .activeNotChild, line: line(of: item, field: "active"),
                   "switch node \(item.label) names '\(active)' as active, which is not one of its children: \(elsewhere); \(childList)")
        }
    }
}
