import Portolan

/// The explored states drawn (docs/explore.md): a node per state, labelled with its active path,
/// an edge per action that led to another state, and the states with findings marked red. DOT
/// for Graphviz, or an SVG Portolan lays out itself: one column per depth.
public enum ExploreGraph {
    /// The states with findings, by index.
    static func marked(_ report: ExploreReport) -> [Int: [String]] {
        var marks: [Int: [String]] = [:]
        for finding in report.findings where finding.kind != .unreachable {
            marks[finding.state, default: []].append(finding.kind.name)
        }
        return marks
    }

    /// Distinct edges between distinct states, each labelled with the first action that took it.
    static func edges(_ report: ExploreReport) -> [(from: Int, to: Int, label: String)] {
        var seen: Set<[Int]> = []
        var edges: [(Int, Int, String)] = []
        for edge in report.edges {
            guard let to = edge.to, to != edge.from, seen.insert([edge.from, to]).inserted else { continue }
            edges.append((edge.from, to, edge.action.description))
        }
        return edges
    }

    public static func dot(_ report: ExploreReport) -> String {
        let marks = marked(report)
        var lines = ["digraph explored {", "  rankdir=LR;", "  node [shape=box, fontname=\"Helvetica\"];"]
        for (index, visited) in report.states.enumerated() {
            var label = "\(index): \(visited.pathText)"
            var style = index == 0 ? ", penwidth=2" : ""
            if let kinds = marks[index] {
                label += "\n" + kinds.joined(separator: ", ")
                style += ", color=red, fontcolor=red"
            }
            lines.append("  s\(index) [label=\(quoted(label))\(style)];")
        }
        for edge in edges(report) {
            lines.append("  s\(edge.from) -> s\(edge.to) [label=\(quoted(edge.label))];")
        }
        if report.findings.contains(where: { $0.kind == .unreachable }) {
            let unreachable = report.findings.filter { $0.kind == .unreachable }.compactMap(\.node)
            lines.append("  unreachable [shape=note, color=red, fontcolor=red, label=\(quoted("never shown: " + unreachable.joined(separator: ", ")))];")
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    private static func quoted(_ text: String) -> String {
        var result = "\""
        for character in text {
            switch character {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            default: result.append(character)
            }
        }
        return result + "\""
    }
}
