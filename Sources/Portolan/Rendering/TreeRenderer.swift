/// Draws the live tree as text, for the REPL and for failure messages.
///
/// ```
/// switchNode1 [switch] *
/// ├─ switchNode2 [switch]
/// │  ├─ node3 ·
/// │  └─ node4
/// └─ node1 *
///    └─ node5 *
/// ```
/// `*` marks the active path; `·` marks the selected child of a switch node off the active path,
/// which is what shows when the user switches back to it. A node that stands on its path more than
/// once (a screen pushed over itself) is numbered from its second copy, `product {id=2} #2`, as a
/// destination names it (`Destination.live`).
enum TreeRenderer {
    static func text(_ tree: RoutingTree) -> String {
        var lines: [String] = []
        draw(tree.root, prefix: "", connector: "", state: .active, copies: [:], into: &lines)
        return lines.joined(separator: "\n")
    }

    private enum Marking {
        case active, selected, none

        var suffix: String {
            switch self {
            case .active: return " *"
            case .selected: return " " + GraphRenderer.shownOffPathMark
            case .none: return ""
            }
        }
    }

    private static func draw(
        _ node: LiveNode, prefix: String, connector: String, state: Marking, copies: [NodeID: Int], into lines: inout [String]
    ) {
        let kind = node.kind == .switch ? " [switch]" : ""
        var copies = copies
        let copy = copies[node.entry.id, default: 0] + 1
        copies[node.entry.id] = copy
        let number = copy > 1 ? " #\(copy)" : ""
        lines.append(prefix + connector + node.entry.description + number + kind + state.suffix)
        let childPrefix = prefix + (connector == "├─ " ? "│  " : connector.isEmpty ? "" : "   ")
        for (index, child) in node.children.enumerated() {
            let isLast = index == node.children.count - 1
            let isSelected = index == node.activeIndex
            let childState: Marking = isSelected ? (state == .active ? .active : .selected) : .none
            draw(child, prefix: childPrefix, connector: isLast ? "└─ " : "├─ ", state: childState, copies: copies, into: &lines)
        }
    }
}
