/// Positions for the boxes of a drawing, in whole pixels, so the SVG is the same bytes every time.
///
/// A tidy tree, computed in two linear passes: each subtree is as wide as its own box or its
/// children's subtrees side by side, whichever is wider; children are placed left to right in
/// their parent's span, and the parent is centred over its first and last child (kept inside the
/// span, so a wide parent never overlaps its neighbour). Rows are as tall as their tallest box.
/// The anywhere forest is laid out the same way, on its own, to the right of the main tree.
struct TreeLayout {
    struct Box: Equatable {
        var x = 0, y = 0, width = 0, height = 0
        var centerX: Int { x + width / 2 }
        var bottom: Int { y + height }
        var right: Int { x + width }
    }

    static let fontSize = 12
    static let lineHeight = 16
    static let paddingX = 12
    static let paddingY = 6
    static let gapX = 24
    static let gapY = 44
    static let margin = 20
    /// Space between the anywhere frame's border and its nodes; the top one holds its label.
    static let framePadding = 16
    static let frameLabel = 18

    /// One box per node of the drawing, by index.
    private(set) var boxes: [Box]
    /// The main tree's extent.
    private(set) var mainSize = (width: 0, height: 0)
    /// The dashed frame around the anywhere forest, if there is one.
    private(set) var anywhereFrame: Box?

    /// A box's lines: the label, a `switch` tag, then details.
    static func lines(of node: GraphDrawing.Node) -> Int {
        1 + (node.kind == .switch ? 1 : 0) + node.lines.count
    }

    /// The estimated width of a line of text: no font metrics, a fixed advance per character,
    /// double for wide (CJK, emoji) characters.
    static func textWidth(_ text: String, fontSize: Int = fontSize) -> Int {
        (widthUnits(text) * fontSize * 6 + 9) / 10  // ≈ 0.6 em per character
    }

    /// A line of text's width in characters, wide (CJK, emoji) ones counting double.
    static func widthUnits(_ text: String) -> Int {
        var units = 0
        for character in text {
            let wide = character.unicodeScalars.first.map { $0.value >= 0x1100 && ($0.value < 0x2000 || $0.value >= 0x2E80) } ?? false
            units += wide ? 2 : 1
        }
        return units
    }

    init(_ drawing: GraphDrawing, origin: (x: Int, y: Int)) {
        boxes = drawing.nodes.map { node in
            var width = Self.textWidth(node.label)
            if node.kind == .switch { width = max(width, Self.textWidth("switch", fontSize: 10)) }
            for line in node.lines { width = max(width, Self.textWidth(line, fontSize: 10)) }
            return Box(width: max(width + 2 * Self.paddingX, 48), height: Self.lines(of: node) * Self.lineHeight + 2 * Self.paddingY)
        }
        guard !drawing.nodes.isEmpty else { return }
        let main = place([drawing.root], of: drawing, at: origin)
        mainSize = main
        if !drawing.anywhereRoots.isEmpty {
            let left = origin.x + main.width + 2 * Self.gapX
            let inner = (x: left + Self.framePadding, y: origin.y + Self.frameLabel + Self.framePadding)
            let forest = place(drawing.anywhereRoots, of: drawing, at: inner)
            anywhereFrame = Box(
                x: left, y: origin.y,
                width: forest.width + 2 * Self.framePadding,
                height: forest.height + Self.frameLabel + 2 * Self.framePadding)
        }
    }

    /// The right and bottom edges of everything laid out.
    var extent: (right: Int, bottom: Int) {
        var right = 0, bottom = 0
        for box in boxes {
            right = max(right, box.right)
            bottom = max(bottom, box.bottom)
        }
        if let frame = anywhereFrame {
            right = max(right, frame.right)
            bottom = max(bottom, frame.bottom)
        }
        return (right, bottom)
    }

    /// Lays out a forest with its top-left corner at `origin`; returns its size.
    private mutating func place(_ roots: [Int], of drawing: GraphDrawing, at origin: (x: Int, y: Int)) -> (width: Int, height: Int) {
        let walk = preOrder(roots, of: drawing)
        var span = [Int](repeating: 0, count: boxes.count)
        for index in walk.order.reversed() {
            span[index] = max(boxes[index].width, Self.blockWidth(drawing.nodes[index].children, span: span))
        }
        var rowTops: [Int] = []
        var top = origin.y
        for height in walk.rowHeights {
            rowTops.append(top)
            top += height + Self.gapY
        }
        let (left, cursor) = Self.lefts(roots, order: walk.order, span: span, of: drawing, x: origin.x)
        // Bottom-up: leaves centred in their span, parents over their children.
        for index in walk.order.reversed() {
            let children = drawing.nodes[index].children
            let start = left[index]
            let width = span[index]
            var center = start + width / 2
            if let first = children.first, let last = children.last {
                let middle = (boxes[first].centerX + boxes[last].centerX) / 2
                let half = boxes[index].width / 2
                center = min(max(middle, start + half), start + width - (boxes[index].width - half))
            }
            boxes[index].x = center - boxes[index].width / 2
            boxes[index].y = rowTops[walk.depth[index]]
        }
        let forestWidth = max(0, cursor - Self.gapX - origin.x)
        return (forestWidth, max(0, top - Self.gapY - origin.y))
    }

    /// Pre-order: the depth of each node, the height of each row (its tallest box), and the
    /// forest's nodes in an order whose reverse is a valid post-order for the width pass.
    private func preOrder(_ roots: [Int], of drawing: GraphDrawing) -> (order: [Int], depth: [Int], rowHeights: [Int]) {
        var order: [Int] = []
        var depth = [Int](repeating: 0, count: boxes.count)
        var stack = roots.reversed().map { ($0, 0) }
        var rowHeights: [Int] = []
        while let (index, level) = stack.popLast() {
            order.append(index)
            depth[index] = level
            if rowHeights.count <= level { rowHeights.append(0) }
            rowHeights[level] = max(rowHeights[level], boxes[index].height)
            for child in drawing.nodes[index].children.reversed() { stack.append((child, level + 1)) }
        }
        return (order, depth, rowHeights)
    }

    /// The width of children's subtrees side by side.
    private static func blockWidth(_ children: [Int], span: [Int]) -> Int {
        children.reduce(0) { $0 + span[$1] } + gapX * max(0, children.count - 1)
    }

    /// Top-down: each node gets the left edge of its span; children are centred within it. Also
    /// returns where a next root would start.
    private static func lefts(
        _ roots: [Int], order: [Int], span: [Int], of drawing: GraphDrawing, x: Int
    ) -> (left: [Int], cursor: Int) {
        var left = [Int](repeating: x, count: span.count)
        var cursor = x
        for root in roots {
            left[root] = cursor
            cursor += span[root] + gapX
        }
        for index in order {
            let children = drawing.nodes[index].children
            var childLeft = left[index] + (span[index] - blockWidth(children, span: span)) / 2
            for child in children {
                left[child] = childLeft
                childLeft += span[child] + gapX
            }
        }
        return (left, cursor)
    }
}
