import Foundation
@testable import Portolan
import Testing

/// The SVG scales to its container: no width or height of its own, a `viewBox` that holds
/// everything drawn, the anywhere frame and a long title included.
@Suite struct SVGViewBoxTests {
    /// The `viewBox` of the root element, as numbers.
    private func viewBox(_ svg: String) throws -> (x: Int, y: Int, right: Int, bottom: Int) {
        let root = try #require(svg.split(separator: "\n").first { $0.hasPrefix("<svg ") })
        #expect(!root.contains(" width=\""), "the svg element has no fixed width: \(root)")
        #expect(!root.contains(" height=\""), "the svg element has no fixed height: \(root)")
        let value = try #require(root.firstMatch(of: /viewBox="(-?\d+) (-?\d+) (\d+) (\d+)"/))
        let x = try #require(Int(value.1)), y = try #require(Int(value.2))
        return (x, y, x + (try #require(Int(value.3))), y + (try #require(Int(value.4))))
    }

    /// Every rectangle drawn (node boxes, the frame, legend samples) but the background, by its
    /// attributes.
    private func rectangles(_ svg: String) -> [(x: Int, y: Int, right: Int, bottom: Int)] {
        svg.matches(of: /<rect(?: class="([^"]*)")? x="(-?\d+)" y="(-?\d+)" width="(\d+)" height="(\d+)"/).compactMap { match in
            guard match.1 != "background", let x = Int(match.2), let y = Int(match.3), let width = Int(match.4), let height = Int(match.5) else { return nil }
            return (x, y, x + width, y + height)
        }
    }

    @Test func theViewBoxHoldsAWideAnywhereFrameWithItsStroke() throws {
        let prompts = (1...6).map { NodeSpec.screen("a_prompt_reachable_from_anywhere_number_\($0)") }
        let graph = try PortusTree.graph(anywhere: prompts)
        let svg = GraphRenderer.render(graph, as: .svg)
        let box = try viewBox(svg)
        let drawn = rectangles(svg)
        try #require(drawn.count > prompts.count)
        let frame = try #require(svg.firstMatch(of: /<rect class="frame" x="(\d+)" y="(\d+)" width="(\d+)" height="(\d+)"/))
        let frameRight = try #require(Int(frame.1)) + (try #require(Int(frame.3)))
        #expect(frameRight > 1_280, "the frame is wider than a window: a real test of scaling")
        for rectangle in drawn {
            // A stroke reaches half its width (at most 3.5 px) outside its shape.
            #expect(rectangle.x - 2 >= box.x && rectangle.right + 2 <= box.right, "\(rectangle) in \(box)")
            #expect(rectangle.y - 2 >= box.y && rectangle.bottom + 2 <= box.bottom, "\(rectangle) in \(box)")
        }
    }

    @Test func aTitleWiderThanTheGraphWidensTheViewBox() throws {
        let graph = try NavigationGraph(root: .screen("only"))
        let title = String(repeating: "A long title for a small graph ", count: 4)
        let svg = GraphRenderer.render(graph, as: .svg, style: GraphStyle(title: title))
        let box = try viewBox(svg)
        // The title starts at the margin; bold 14 px text is at least 0.6 em a character.
        #expect(box.right >= TreeLayout.margin + title.count * 14 * 6 / 10)
    }

    @Test func theBackgroundCoversTheViewBox() throws {
        let svg = GraphRenderer.render(try PortusTree.graph(anywhere: [.screen("alert")]), as: .svg)
        let box = try viewBox(svg)
        let background = try #require(svg.firstMatch(of: /<rect class="background" x="(-?\d+)" y="(-?\d+)" width="(\d+)" height="(\d+)"/))
        #expect(Int(background.1) == box.x && Int(background.2) == box.y)
        #expect(Int(background.3) == box.right - box.x && Int(background.4) == box.bottom - box.y)
    }
}
