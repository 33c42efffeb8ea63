import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
@testable import Portolan
import TestSupport
import Testing

/// Each format on the tiny graph (exact text where the format is meant for people) and on the
/// Portus tree (structure), declared, with a live overlay, and as the live tree.
@Suite struct RenderingTests {
    /// The tiny graph routed to detail, with the alert entered on top.
    static func tinyTree() throws -> RoutingTree {
        var tree = RoutingTree(graph: try RenderingFixtures.tiny())
        try tree.apply(.enter("detail"))
        try tree.apply(.enter("alert"))
        return tree
    }

    /// The Portus tree routed into switchNode3 → node12, leaving node1's stack behind.
    static func portusTree() throws -> RoutingTree {
        var tree = try PortusTree.tree(anywhere: [.screen("alert")])
        _ = try planAndApply(&tree, to: path("switchNode1", "node1", "node5", "node8"))
        _ = try planAndApply(&tree, to: path("switchNode1", "node2", "switchNode3", "node12"))
        return tree
    }

    // MARK: text

    @Test func textOfTheTinyGraph() throws {
        let graph = try RenderingFixtures.tiny()
        #expect(GraphRenderer.render(graph, as: .text) == """
        root [switch] (active: home)
        ├─ home
        │  └─ detail
        └─ settings
        anywhere:
        └─ alert
        """)
        #expect(GraphRenderer.render(graph, as: .text, live: try Self.tinyTree()) == """
        root [switch] (active: home) *
        ├─ home *
        │  └─ detail *
        └─ settings
        anywhere:
        └─ alert *
        """)
    }

    @Test func textOfTheLiveTreeReadsLikeTreeRenderer() throws {
        let tree = try Self.portusTree()
        #expect(GraphRenderer.render(tree, as: .text) == TreeRenderer.text(tree))
        #expect(GraphRenderer.render(try Self.tinyTree(), as: .text) == TreeRenderer.text(try Self.tinyTree()))
    }

    @Test func textShowsRoutesAsDetails() throws {
        let graph = try NavigationGraph(root: .screen("home", [NodeSpec("movie", routes: ["/movies/:id", "/m/:id"])]))
        let text = GraphRenderer.render(graph, as: .text, style: GraphStyle().showingRoutes(of: graph))
        #expect(text == "home\n└─ movie  /movies/:id  /m/:id")
    }

    // MARK: mermaid

    @Test func mermaidOfTheTinyGraph() throws {
        let graph = try RenderingFixtures.tiny()
        #expect(GraphRenderer.render(graph, as: .mermaid, live: try Self.tinyTree()) == """
        flowchart TD
          n0("root")
          n1["home"]
          n2["detail"]
          n3["settings"]
          subgraph anywhere ["anywhere"]
            n4["alert"]
          end
          n0 ==> n1
          n1 --> n2
          n0 --> n3
          n2 -.-> n4
          classDef switch fill:#e7f5ff,stroke:#1c7ed6
          classDef anywhere stroke-dasharray:5 5
          classDef active fill:#ffe8cc,stroke:#d9480f,stroke-width:3px
          class n0 switch
          class n4 anywhere
          class n0,n1,n2,n4 active
          linkStyle 0,1,3 stroke:#d9480f,stroke-width:3px

        """)
    }

    @Test func mermaidOfThePortusGraphNamesEveryNodeOnceAndLinksOnlyNamedNodes() throws {
        let graph = try PortusTree.graph(anywhere: [.screen("alert")])
        for text in [GraphRenderer.render(graph, as: .mermaid, live: try Self.portusTree()),
                     GraphRenderer.render(try Self.portusTree(), as: .mermaid)] {
            let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            let declared = lines.filter { $0.range(of: #"^n\d+[\[(]""#, options: .regularExpression) != nil }
                .map { String($0.prefix(while: { $0 != "[" && $0 != "(" })) }
            #expect(declared.count == Set(declared).count)
            #expect(declared.count == (text.contains("subgraph") ? 17 : TreeRendererCount.nodes(in: try Self.portusTree())))
            let links = lines.filter { $0.contains("-->") || $0.contains("==>") || $0.contains("-.->") }
            for link in links {
                let ends = link.split(separator: " ")
                try #require(ends.count >= 3, "\(link)")
                #expect(declared.contains(String(ends[0])) && declared.contains(String(ends[2])), "\(link)")
            }
            #expect(lines.contains { $0.hasPrefix("class ") && $0.hasSuffix(" active") })
        }
    }

    // MARK: dot

    @Test func dotOfThePortusGraphIsStructurallySound() throws {
        let graph = try PortusTree.graph(anywhere: [.screen("alert")])
        let structure = try DOTStructure(GraphRenderer.render(graph, as: .dot))
        #expect(structure.nodes.map(DOTStructure.unescape) == declarationOrder(graph))
        #expect(structure.edges.count == 15)  // every node but the root and the anywhere one
        #expect(structure.attributes["switchNode2"]?.contains("peripheries=2") == true)
        #expect(structure.attributes["alert"]?.contains("dashed") == true)
        let text = GraphRenderer.render(graph, as: .dot)
        #expect(text.contains(#""switchNode1" -> "node1" [style="bold""#))
        #expect(text.contains("subgraph \"cluster_anywhere\""))
    }

    @Test func dotHighlightsTheActivePath() throws {
        let graph = try PortusTree.graph(anywhere: [.screen("alert")])
        let tree = try Self.portusTree()
        let structure = try DOTStructure(GraphRenderer.render(graph, as: .dot, live: tree))
        let active = Set(tree.activePath.map(\.id))
        for node in structure.nodes {
            let filled = structure.attributes[node]?.contains("filled") == true
            #expect(filled == active.contains(node), "\(node)")
        }
        let live = try DOTStructure(GraphRenderer.render(tree, as: .dot))
        #expect(live.nodes.count == TreeRendererCount.nodes(in: tree))
        #expect(live.edges.count == live.nodes.count - 1)
    }

    // MARK: json

    @Test func jsonOfThePortusGraphParsesWithEveryField() throws {
        let graph = try PortusTree.graph(anywhere: [.screen("alert")])
        let tree = try Self.portusTree()
        let json = try parseRenderedJSON(GraphRenderer.render(graph, as: .json, live: tree))
        #expect(json["root"] as? String == "switchNode1")
        #expect(json["activePath"] as? [String] == tree.activePath.map(\.description))
        let nodes = try #require(json["nodes"] as? [[String: Any]])
        #expect(nodes.compactMap { $0["id"] as? String } == declarationOrder(graph))
        for node in nodes {
            let id = try #require(node["id"] as? String)
            let declaration = try #require(graph[id])
            #expect(node["kind"] as? String == declaration.kind.rawValue)
            #expect((node["parent"] as? String) == declaration.parent)
            #expect(node["children"] as? [String] == declaration.children)
            #expect((node["active"] as? String) == declaration.initialActive)
            #expect(node["anywhere"] as? Bool == declaration.isAnywhere)
            #expect(node["onActivePath"] as? Bool == tree.activePath.contains { $0.id == id })
        }
        let plain = try parseRenderedJSON(GraphRenderer.render(graph, as: .json))
        #expect((plain["activePath"] as? [Any])?.isEmpty == true)
        #expect((plain["nodes"] as? [[String: Any]])?.first?["onActivePath"] == nil)
    }

    @Test func jsonOfTheLiveTreeUsesKeysAndEntries() throws {
        var tree = try Self.portusTree()
        try tree.apply(.enter(Entry("alert", context: ["id": .integer(42), "msg": .string("hé \"x\"")])))
        let json = try parseRenderedJSON(GraphRenderer.render(tree, as: .json))
        let nodes = try #require(json["nodes"] as? [[String: Any]])
        let keys = nodes.compactMap { $0["key"] as? String }
        #expect(Set(keys).count == keys.count)
        #expect(json["root"] as? String == "0")
        let alert = try #require(nodes.first { $0["id"] as? String == "alert" })
        #expect(alert["entry"] as? String == tree.activePath.last?.description)
        #expect(tree.activePath.last?.description == #"alert {id=42,msg="hé \"x\""}"#)
        #expect(alert["anywhere"] as? Bool == true)
        #expect((json["activePath"] as? [String])?.last == tree.activePath.last?.description)
        for node in nodes {
            for child in node["children"] as? [String] ?? [] {
                #expect(keys.contains(child))
            }
        }
    }

    // MARK: svg

    @Test func svgOfThePortusGraphIsWellFormedWithOneGroupPerNode() throws {
        let graph = try PortusTree.graph(anywhere: [.screen("alert")])
        let tree = try Self.portusTree()
        let svg = GraphRenderer.render(graph, as: .svg, live: tree)
        #expect(svg.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\""))
        #expect(svg.contains("viewBox=\"0 0 "))
        let nodes = try svgNodes(svg)
        #expect(nodes.map(\.id) == declarationOrder(graph))
        let active = Set(tree.activePath.map(\.id))
        for node in nodes {
            #expect(node.classes.contains("node"))
            #expect(node.classes.contains("active") == active.contains(node.id), "\(node.id)")
            #expect(node.classes.contains("switch") == (graph[node.id]?.kind == .switch))
            #expect(node.classes.contains("anywhere") == (node.id == "alert"))
        }
        #expect(svg.contains("class=\"legend\""))
        #expect(svg.contains("class=\"edge active\" data-from=\"switchNode1\" data-to=\"node2\""))
    }

    @Test func svgOfTheLiveTreeMarksTheActivePath() throws {
        let tree = try Self.portusTree()
        let svg = GraphRenderer.render(tree, as: .svg)
        let nodes = try svgNodes(svg)
        #expect(nodes.count == TreeRendererCount.nodes(in: tree))
        #expect(nodes.filter { $0.classes.contains("active") }.map(\.id) == tree.activePath.map(\.id))
        #expect(svg.contains("data-key=\"0.2.0.0\""))
    }

    @Test func svgBoxesDoNotOverlapAndChildrenSitBelowParents() throws {
        let graph = try RenderingFixtures.random(count: 300, seed: 7)
        let svg = GraphRenderer.render(graph, as: .svg)
        let boxes = try svgBoxes(svg)
        #expect(boxes.count == 303)
        let byRow = Dictionary(grouping: boxes.values, by: \.y)
        for row in byRow.values {
            let sorted = row.sorted { $0.x < $1.x }
            for (a, b) in zip(sorted, sorted.dropFirst()) {
                #expect(a.x + a.width <= b.x, "overlap at y=\(a.y)")
            }
        }
        for id in declarationOrder(graph) {
            guard let parent = graph[id]?.parent, let box = boxes[id], let parentBox = boxes[parent] else { continue }
            #expect(box.y > parentBox.y)
        }
    }

    // MARK: style

    @Test func styleClassesReachEveryFormat() throws {
        let graph = try PortusTree.graph()
        let style = GraphStyle.marking(
            nodes: ["node1", "node5"], edges: [GraphEdgeID(from: "node1", to: "node5")], as: "cov ered!",
            stylesheet: ".covered rect { fill: #b2f2bb; }", legend: "covered by a scenario")
        let svg = GraphRenderer.render(graph, as: .svg, style: style)
        let nodes = try svgNodes(svg)
        #expect(nodes.filter { $0.classes.contains("cov-ered-") }.map(\.id) == ["node1", "node5"])
        #expect(svg.contains("class=\"edge cov-ered-\" data-from=\"node1\" data-to=\"node5\""))
        #expect(svg.contains(".covered rect { fill: #b2f2bb; }"))
        #expect(svg.contains("covered by a scenario"))
        let dot = GraphRenderer.render(graph, as: .dot, style: style)
        #expect(dot.contains("class=\"node screen cov-ered-\""))
        #expect(dot.contains("\"node1\" -> \"node5\" [class=\"edge cov-ered-\"]"))
        let mermaid = GraphRenderer.render(graph, as: .mermaid, style: style)
        #expect(mermaid.contains("  class n4,n5 cov-ered-\n"))
        let json = try parseRenderedJSON(GraphRenderer.render(graph, as: .json, style: style))
        let styled = (json["nodes"] as? [[String: Any]] ?? []).filter { $0["classes"] != nil }
        #expect(styled.compactMap { $0["id"] as? String } == ["node1", "node5"])
        #expect((json["edges"] as? [[String: Any]])?.count == 1)
    }

    @Test func aTitleAndAStylesheetCannotBreakTheDocument() throws {
        let graph = try RenderingFixtures.tiny()
        let style = GraphStyle(details: { ["<&\($0)>"] }, stylesheet: "/* ]]> */ .x {}", title: "Title <&> \"q\"")
        let svg = GraphRenderer.render(graph, as: .svg, style: style)
        #expect(try svgNodes(svg).count == 5)
        _ = try DOTStructure(GraphRenderer.render(graph, as: .dot, style: style))
        _ = try parseRenderedJSON(GraphRenderer.render(graph, as: .json, style: style))
        #expect(GraphRenderer.render(graph, as: .mermaid, style: style).hasPrefix("---\ntitle: \"Title <&> \\\"q\\\"\"\n---\n"))
    }

    // MARK: determinism and scale

    @Test func sameInputSameBytes() throws {
        let tree = try Self.portusTree()
        for format in GraphFormat.allCases {
            let a = GraphRenderer.render(try PortusTree.graph(anywhere: [.screen("alert")]), as: format, live: tree)
            let b = GraphRenderer.render(try PortusTree.graph(anywhere: [.screen("alert")]), as: format, live: tree)
            #expect(a == b)
            #expect(GraphRenderer.render(tree, as: format) == GraphRenderer.render(tree, as: format))
        }
    }

    @Test func aThousandNodeRandomGraphRendersInEveryFormat() throws {
        let graph = try RenderingFixtures.random(count: 1_000, seed: 42)
        var tree = RoutingTree(graph: graph)
        // Route to the deepest declared node, then put an alert on top.
        let order = declarationOrder(graph).filter { graph[$0]?.isAnywhere == false }
        let deepest = order.max { graph.lineage(of: $0).count < graph.lineage(of: $1).count } ?? graph.rootID
        _ = try planAndApply(&tree, to: .path(graph.lineage(of: deepest).map { Entry($0) }))
        try? tree.apply(.enter("alert"))
        for format in GraphFormat.allCases {
            let declared = GraphRenderer.render(graph, as: format, live: tree)
            let live = GraphRenderer.render(tree, as: format)
            #expect(!declared.isEmpty && !live.isEmpty)
        }
        let svg = GraphRenderer.render(graph, as: .svg, live: tree)
        #expect(try svgNodes(svg).count == 1_003)
        #expect(try DOTStructure(GraphRenderer.render(graph, as: .dot)).nodes.count == 1_003)
        #expect(((try parseRenderedJSON(GraphRenderer.render(graph, as: .json)))["nodes"] as? [Any])?.count == 1_003)
    }

    @Test func timeGrowsLinearlyWithTheNodeCount() throws {
        // CPU time of this thread, not wall time: a busy machine deschedules the thread, which
        // would inflate either measurement at random; the work done is what must grow linearly.
        func cpuSeconds(_ count: Int) throws -> Double {
            let graph = try RenderingFixtures.random(count: count, seed: 3)
            var best = Double.infinity
            for _ in 0..<3 {
                let start = threadCPUSeconds()
                for format in GraphFormat.allCases { _ = GraphRenderer.render(graph, as: format) }
                best = min(best, threadCPUSeconds() - start)
            }
            return best
        }
        let small = try cpuSeconds(1_000), large = try cpuSeconds(8_000)
        // 8× the nodes; quadratic work would be 64×. Generous: caches and allocators grow too.
        #expect(large / small < 24, "1,000 nodes: \(small)s, 8,000 nodes: \(large)s of CPU")
    }

    @Test func aDeepChainDoesNotExhaustTheStack() throws {
        var spec = NodeSpec.screen("leaf")
        for depth in 0..<(NavigationGraph.maximumDepth - 1) { spec = .screen("n\(depth)", [spec]) }
        let graph = try NavigationGraph(root: spec)
        for format in GraphFormat.allCases {
            #expect(!GraphRenderer.render(graph, as: format).isEmpty)
        }
    }
}

/// The number of nodes in a live tree.
enum TreeRendererCount {
    static func nodes(in tree: RoutingTree) -> Int {
        var count = 0
        var stack = [tree.root]
        while let node = stack.popLast() {
            count += 1
            stack += node.children
        }
        return count
    }
}

/// The SVG's node boxes by `data-id`, read from each group's first `<rect>`.
func svgBoxes(_ svg: String) throws -> [String: (x: Int, y: Int, width: Int, height: Int)] {
    try renderingXMLLock.withLock { _ in try svgBoxesUnlocked(svg) }
}

private func svgBoxesUnlocked(_ svg: String) throws -> [String: (x: Int, y: Int, width: Int, height: Int)] {
    let document = try XMLDocument(data: Data(svg.utf8), options: [])
    var boxes: [String: (x: Int, y: Int, width: Int, height: Int)] = [:]
    for element in document.rootElement()?.allElements ?? [] {
        guard let id = element.value(of: "data-id"),
              let rect = (element.children ?? []).compactMap({ $0 as? XMLElement }).first(where: { $0.name == "rect" })
        else { continue }
        func value(_ name: String) -> Int { Int(rect.value(of: name) ?? "") ?? -1 }
        boxes[id] = (value("x"), value("y"), value("width"), value("height"))
    }
    return boxes
}
