import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Portolan
import TestSupport
import Synchronization

/// Graphs the rendering tests draw.
enum RenderingFixtures {
    /// Five nodes: a switch root with a stack under one child, and an alert reachable from anywhere.
    static func tiny() throws -> NavigationGraph {
        try NavigationGraph(
            root: .switch("root", active: "home", [.screen("home", [.screen("detail")]), .screen("settings")]),
            anywhere: [.screen("alert")])
    }

    /// Ids that every format must escape: markup, quotes, backslashes, controls, reserved words, unicode.
    static let hostileIDs: [NodeID] = [
        "a<b>&c", "say \"hi\"", "it's", "back\\slash", "line\nbreak", "tab\tand\u{1}ctl", "end", "n0",
        "日本語", "emoji 🧭", "x]]>y", "#quot;", "graph", "-->",
    ]

    /// A switch root over all hostile ids, the last few as a stack, plus one reachable from anywhere.
    static func hostile() throws -> NavigationGraph {
        let ids = hostileIDs
        var stack = NodeSpec.screen(ids[ids.count - 2])
        stack = .screen(ids[ids.count - 3], [stack])
        let flat = ids[0..<(ids.count - 3)].map { NodeSpec.screen($0) }
        return try NavigationGraph(
            root: .switch("root \"<&>\"", active: ids[1], flat + [stack]),
            anywhere: [.screen(ids[ids.count - 1])])
    }

    /// A random tree of `count` nodes, about one in seven a switch node, a few reachable from anywhere.
    static func random(count: Int, seed: UInt64) throws -> NavigationGraph {
        var generator = SeededRandom(seed: seed)
        var children: [[Int]] = Array(repeating: [], count: count)
        for node in 1..<count {
            children[Int(generator.next() % UInt64(node))].append(node)
        }
        func spec(_ node: Int) -> NodeSpec {
            let kids = children[node].map(spec)
            if !kids.isEmpty, generator.next() % 7 == 0 {
                return .switch("node \(node)", kids)
            }
            return .screen("node \(node)", kids)
        }
        return try NavigationGraph(root: spec(0), anywhere: [.screen("alert", [.screen("alert detail")]), .screen("login")])
    }
}

/// A small DOT reader: enough to check that a renderer's output is structurally sound.
struct DOTStructure {
    var nodes: [String] = []
    var edges: [(String, String)] = []
    var attributes: [String: String] = [:]  // node → its attribute list, raw

    enum Problem: Error, CustomStringConvertible {
        case unbalanced(String), unterminatedString, duplicateNode(String), undeclaredEnd(String), noHeader
        var description: String { "\(self)" }
    }

    /// Parses the statements a renderer writes: `"id" [ … ];`, `"a" -> "b" [ … ];`, braces.
    init(_ text: String) throws {
        guard text.hasPrefix("digraph ") else { throw Problem.noHeader }
        var depth = 0
        var tokens: [String] = []  // quoted strings unescaped, prefixed with a quote mark
        var index = text.startIndex
        var bracket = 0
        var statement: [String] = []
        var bracketText = ""
        func flush() throws {
            defer { statement = []; bracketText = "" }
            let quoted = statement.filter { $0.hasPrefix("\"") }.map { String($0.dropFirst()) }
            if statement.count >= 3, statement[0].hasPrefix("\""), statement[1] == "->", statement[2].hasPrefix("\"") {
                edges.append((quoted[0], quoted[1]))
            } else if statement.count == 1, statement[0].hasPrefix("\""), !bracketText.isEmpty {
                let name = String(statement[0].dropFirst())
                if attributes[name] != nil { throw Problem.duplicateNode(name) }
                nodes.append(name)
                attributes[name] = bracketText
            }
        }
        while index < text.endIndex {
            let character = text[index]
            if character == "\"" {
                let value: String
                (value, index) = try Self.quoted(in: text, from: index)
                if bracket > 0 { bracketText += "\"" + value + "\"" } else { statement.append("\"" + value) }
                tokens.append(value)
            } else if character == "[" {
                bracket += 1
            } else if character == "]" {
                bracket -= 1
                if bracket < 0 { throw Problem.unbalanced("]") }
            } else if bracket > 0 {
                bracketText.append(character)
            } else if character == "{" {
                depth += 1
                statement = []
            } else if character == "}" {
                depth -= 1
                if depth < 0 { throw Problem.unbalanced("}") }
                statement = []
            } else if character == ";" || character == "\n" {
                try flush()
            } else if character == "-" && text[text.index(after: index)] == ">" {
                statement.append("->")
                index = text.index(after: index)
            } else if !character.isWhitespace {
                var word = String(character)
                while text.index(after: index) < text.endIndex, !"[]{};\"= \n".contains(text[text.index(after: index)]) {
                    index = text.index(after: index)
                    word.append(text[index])
                }
                statement.append(word)
            }
            index = text.index(after: index)
        }
        guard depth == 0, bracket == 0 else { throw Problem.unbalanced("{") }
        try checkEdgesJoinDeclaredNodes()
    }

    private func checkEdgesJoinDeclaredNodes() throws {
        let declared = Set(nodes)
        for (from, to) in edges {
            if !declared.contains(from) { throw Problem.undeclaredEnd(from) }
            if !declared.contains(to) { throw Problem.undeclaredEnd(to) }
        }
    }

    /// The raw content of the quoted string opening at `start` (escapes kept), and the index of
    /// its closing quote.
    private static func quoted(in text: String, from start: String.Index) throws -> (String, String.Index) {
        var value = ""
        var index = text.index(after: start)
        while index < text.endIndex {
            let c = text[index]
            if c == "\\" {
                let next = text.index(after: index)
                guard next < text.endIndex else { throw Problem.unterminatedString }
                value.append(c)
                value.append(text[next])
                index = text.index(after: next)
                continue
            }
            if c == "\n" { throw Problem.unterminatedString }  // the renderer keeps strings on one line
            if c == "\"" { return (value, index) }
            value.append(c)
            index = text.index(after: index)
        }
        throw Problem.unterminatedString
    }

    /// A DOT quoted string's content back to the text it escapes (`\"`, `\\`, `\n`, `\r`).
    static func unescape(_ raw: String) -> String {
        var out = ""
        var iterator = raw.makeIterator()
        while let c = iterator.next() {
            guard c == "\\", let next = iterator.next() else { out.append(c); continue }
            switch next {
            case "n": out.append("\n")
            case "r": out.append("\r")
            default: out.append(next)
            }
        }
        return out
    }
}

/// Parses JSON with Foundation (tests only; the engine never imports it).
func parseRenderedJSON(_ text: String) throws -> [String: Any] {
    let object = try JSONSerialization.jsonObject(with: Data(text.utf8))
    guard let dictionary = object as? [String: Any] else { throw DOTStructure.Problem.noHeader }
    return dictionary
}

/// The SVG's node groups, by `data-id`, with their classes; throws when the document is not well-formed XML.
func svgNodes(_ svg: String) throws -> [(id: String, classes: Set<String>)] {
    try renderingXMLLock.withLock { _ in try svgNodesUnlocked(svg) }
}

/// FoundationXML on Linux (libxml2 underneath) keeps global state; Swift Testing runs tests in
/// parallel, so documents are parsed one at a time.
let renderingXMLLock = Mutex(())

private func svgNodesUnlocked(_ svg: String) throws -> [(id: String, classes: Set<String>)] {
    let document = try XMLDocument(data: Data(svg.utf8), options: [])
    guard let root = document.rootElement(), root.name == "svg" else { throw DOTStructure.Problem.noHeader }
    var found: [(String, Set<String>)] = []
    for element in root.allElements {
        guard let id = element.value(of: "data-id") else { continue }
        let classes = Set((element.value(of: "class") ?? "").split(separator: " ").map(String.init))
        found.append((id, classes))
    }
    return found
}

extension XMLElement {
    /// An attribute's value, looked up by name: `attribute(forName:)` finds nothing on Linux when
    /// the element is in a default namespace, as every SVG element is.
    func value(of attribute: String) -> String? {
        attributes?.first { $0.name == attribute }?.stringValue
    }

    /// This element and all elements below it, in document order.
    var allElements: [XMLElement] {
        var ordered: [XMLElement] = []
        var stack: [XMLElement] = [self]
        while let element = stack.popLast() {
            ordered.append(element)
            stack += (element.children ?? []).compactMap { $0 as? XMLElement }.reversed()
        }
        return ordered
    }
}

/// All declared node ids in declaration order: depth-first from the root, then the anywhere forest.
func declarationOrder(_ graph: NavigationGraph) -> [NodeID] {
    var order: [NodeID] = []
    var stack = ([graph.rootID] + graph.anywhereIDs).reversed() as [NodeID]
    while let id = stack.popLast() {
        order.append(id)
        stack += (graph[id]?.children ?? []).reversed()
    }
    return order
}
