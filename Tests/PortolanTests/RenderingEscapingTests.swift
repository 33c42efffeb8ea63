import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Portolan
import Testing
import TestSupport

/// Ids with markup, quotes, backslashes, control characters, reserved words and unicode, in every
/// format: each must come back out exactly (or, for XML, as XML allows), and never break the syntax.
@Suite struct RenderingEscapingTests {
    static let graph = Result { try RenderingFixtures.hostile() }

    static func ids() throws -> [NodeID] {
        declarationOrder(try graph.get())
    }

    /// The live tree routed to the deepest hostile node, with the anywhere one on top.
    static func tree() throws -> RoutingTree {
        let graph = try graph.get()
        var tree = RoutingTree(graph: graph)
        let ids = RenderingFixtures.hostileIDs
        _ = try planAndApply(&tree, to: .path(graph.lineage(of: ids[ids.count - 2]).map { Entry($0) }))
        try tree.apply(.enter(Entry(ids[ids.count - 1], context: ["q": .string("<\"&'>")])))
        return tree
    }

    @Test func textShowsIdsAsTheyAre() throws {
        let text = GraphRenderer.render(try Self.graph.get(), as: .text)
        for id in try Self.ids() {
            #expect(text.contains(id), "\(id)")
        }
    }

    @Test func dotQuotesAndEscapesEveryId() throws {
        for text in [GraphRenderer.render(try Self.graph.get(), as: .dot, live: try Self.tree()),
                     GraphRenderer.render(try Self.tree(), as: .dot)] {
            let structure = try DOTStructure(text)
            #expect(structure.nodes.count == Set(structure.nodes).count)
        }
        let structure = try DOTStructure(GraphRenderer.render(try Self.graph.get(), as: .dot))
        // DOT has no escape for other control characters: they are shown (`\u{00}`), never raw.
        #expect(structure.nodes.map(DOTStructure.unescape) == (try Self.ids()).map {
            Escaping.visibleControls($0, keeping: ["\n", "\r"])
        })
        for raw in structure.nodes {
            // Every label is the node's own id, escaped the same way.
            #expect(structure.attributes[raw]?.hasPrefix("label=\"\(raw)") == true, "\(raw)")
        }
    }

    @Test func mermaidLabelsCarryNoSyntax() throws {
        let graph = try Self.graph.get()
        for text in [GraphRenderer.render(graph, as: .mermaid, live: try Self.tree()),
                     GraphRenderer.render(try Self.tree(), as: .mermaid)] {
            var labels: [String] = []
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                let line = line.trimmingCharacters(in: .whitespaces)
                guard line.range(of: #"^n\d+[\[(]""#, options: .regularExpression) != nil else { continue }
                let open = line.firstIndex(of: "\"")!
                let close = line.lastIndex(of: "\"")!
                let label = String(line[line.index(after: open)..<close])
                #expect(!label.contains("\""), "\(line)")
                #expect(!label.contains("<") && !label.contains(">"), "\(line)")
                #expect(line.hasSuffix("\"]") || line.hasSuffix("\")"), "\(line)")
                labels.append(Self.unescapeMermaid(label))
            }
            #expect(labels.count == graph.nodes.count)
        }
        let plain = GraphRenderer.render(graph, as: .mermaid)
        let labels = plain.split(separator: "\n").compactMap { line -> String? in
            guard let open = line.firstIndex(of: "\""), line.trimmingCharacters(in: .whitespaces).hasPrefix("n") else { return nil }
            return Self.unescapeMermaid(String(line[line.index(after: open)..<line.lastIndex(of: "\"")!]))
        }
        #expect(labels == (try Self.ids()))
    }

    @Test func jsonRoundTripsEveryId() throws {
        let graph = try Self.graph.get()
        let tree = try Self.tree()
        let text = GraphRenderer.render(graph, as: .json, live: tree)
        #expect(text.contains(#"\u0001"#) && text.contains(#"\u000A"#) && text.contains(#"\u0009"#))
        let json = try parseRenderedJSON(text)
        let nodes = try #require(json["nodes"] as? [[String: Any]])
        #expect(nodes.compactMap { $0["id"] as? String } == (try Self.ids()))
        #expect(json["activePath"] as? [String] == tree.activePath.map(\.description))
        #expect(json["root"] as? String == "root \"<&>\"")
        let live = try parseRenderedJSON(GraphRenderer.render(tree, as: .json))
        #expect((live["nodes"] as? [[String: Any]])?.last?["entry"] as? String == tree.activePath.last?.description)
    }

    @Test func svgRoundTripsEveryIdItCan() throws {
        let graph = try Self.graph.get()
        let svg = GraphRenderer.render(graph, as: .svg, live: try Self.tree())
        // XML cannot hold U+0001 even as a reference: it becomes U+FFFD; everything else survives.
        let expected = try Self.ids().map { $0.replacingOccurrences(of: "\u{1}", with: "\u{FFFD}") }
        let nodes = try svgNodes(svg)
        #expect(nodes.map(\.id) == expected)
        #expect(nodes.filter { $0.classes.contains("active") }.count == 4)
        let live = try svgNodes(GraphRenderer.render(try Self.tree(), as: .svg))
        #expect(live.count == TreeRendererCount.nodes(in: try Self.tree()))
    }

    @Test func wideCharactersGetWiderBoxes() throws {
        let graph = try NavigationGraph(root: .screen("r", [.screen("abcd"), .screen("日本語です")]))
        let boxes = try svgBoxes(GraphRenderer.render(graph, as: .svg))
        #expect(try #require(boxes["日本語です"]).width > (try #require(boxes["abcd"])).width * 2 - 24)
    }

    static func unescapeMermaid(_ label: String) -> String {
        var out = ""
        var rest = Substring(label)
        let named = ["quot": "\"", "amp": "&", "lt": "<", "gt": ">"]
        while let hash = rest.firstIndex(of: "#") {
            out += rest[..<hash]
            guard let semicolon = rest[hash...].firstIndex(of: ";") else { out += rest[hash...]; return out }
            let name = String(rest[rest.index(after: hash)..<semicolon])
            if let value = named[name] {
                out += value
            } else if let code = UInt32(name), let scalar = Unicode.Scalar(code) {
                out.unicodeScalars.append(scalar)
            }
            rest = rest[rest.index(after: semicolon)...]
        }
        return out + rest
    }
}

/// Renders the SVG in a real browser when one is installed: the screenshot must exist and be more
/// than a blank page.
@Suite struct RenderingBrowserTests {
    @Test(.enabled(if: Chromium.path != nil, "chromium is not installed (scripts/bootstrap.sh installs Debian's chromium)"))
    func chromiumRendersTheSVG() async throws {
        let directory = try TemporaryDirectory("svg")
        defer { directory.remove() }
        let svgFile = directory.path("graph.svg")
        let png = URL(fileURLWithPath: directory.path("graph.png"))
        var tree = try PortusTree.tree()
        _ = try planAndApply(&tree, to: path("switchNode1", "node1", "node5", "node8"))
        try directory.write("graph.svg", GraphRenderer.render(try PortusTree.graph(), as: .svg, live: tree))
        try await Chromium.screenshot(of: svgFile, to: png.path, width: 800, height: 600, in: directory)
        let data = try Data(contentsOf: png)
        #expect(data.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        #expect(data.count > 5_000, "a blank 800×600 PNG is a few hundred bytes")
    }
}
