import Portolan

extension ExploreGraph {
    /// The states in columns by depth, in discovery order down each column; edges as straight
    /// lines; states with findings red, the start bold.
    public static func svg(_ report: ExploreReport) -> String {
        let columnWidth = 260, rowHeight = 34, boxWidth = 240, boxHeight = 26, margin = 10
        var rows: [Int: Int] = [:]
        var position: [Int: (x: Int, y: Int)] = [:]
        for (index, visited) in report.states.enumerated() {
            let row = rows[visited.depth, default: 0]
            rows[visited.depth] = row + 1
            position[index] = (margin + visited.depth * columnWidth, margin + row * rowHeight)
        }
        let width = margin * 2 + ((rows.keys.max() ?? 0) + 1) * columnWidth
        let height = margin * 2 + (rows.values.max() ?? 1) * rowHeight
        let marks = marked(report)
        var parts = ["<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\" viewBox=\"0 0 \(width) \(height)\" font-family=\"Helvetica, sans-serif\" font-size=\"11\">"]
        for edge in edges(report) {
            guard let from = position[edge.from], let to = position[edge.to] else { continue }
            parts.append("<line x1=\"\(from.x + boxWidth)\" y1=\"\(from.y + boxHeight / 2)\" x2=\"\(to.x)\" y2=\"\(to.y + boxHeight / 2)\" stroke=\"#999\" stroke-width=\"0.6\"><title>\(Escaping.xml(edge.label))</title></line>")
        }
        for (index, visited) in report.states.enumerated() {
            guard let at = position[index] else { continue }
            let color = marks[index] == nil ? "#333" : "#c00"
            let title = "\(index): \(visited.pathText)" + (marks[index].map { "\n" + $0.joined(separator: ", ") } ?? "")
            let label = visited.path.last.map(\.description) ?? "?"
            parts.append("<g><title>\(Escaping.xml(title))</title><rect x=\"\(at.x)\" y=\"\(at.y)\" width=\"\(boxWidth)\" height=\"\(boxHeight)\" rx=\"4\" fill=\"#fff\" stroke=\"\(color)\" stroke-width=\"\(index == 0 ? 2 : 1)\"/>"
                + "<text x=\"\(at.x + 6)\" y=\"\(at.y + 17)\" fill=\"\(color)\">\(Escaping.xml(Excerpt.cut("\(index) \(label)", toBytes: 38)))</text></g>")
        }
        parts.append("</svg>")
        return parts.joined(separator: "\n") + "\n"
    }
}
