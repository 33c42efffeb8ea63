@testable import Portolan
import Testing

/// The canonical form (docs/snapshots.md): one text for one value.
@Suite struct CanonicalJSONTests {
    @Test func keysAreSortedByTheirUTF8BytesWithoutWhitespace() {
        let value = JSONValue.object(["b": .integer(1), "a": .array([.null, .boolean(true)]), "é": .string("x"), "Z": .object([:])])
        #expect(CanonicalJSON.text(of: value) == #"{"Z":{},"a":[null,true],"b":1,"é":"x"}"#)
    }

    @Test func stringsEscapeOnlyQuotesBackslashesAndControlCharacters() {
        let value = JSONValue.string("\"\\/\u{8}\u{C}\n\r\t\u{1}\u{1F}é😀")
        #expect(CanonicalJSON.text(of: value) == #""\"\\/\b\f\n\r\t\u0001\u001fé😀""#)
    }

    @Test func aNumberHasOneForm() {
        #expect(CanonicalJSON.text(of: .number(42.0)) == "42")
        #expect(CanonicalJSON.text(of: .number(-0.0)) == "0")
        #expect(CanonicalJSON.text(of: .number(0.5)) == "0.5")
        #expect(CanonicalJSON.text(of: .number(1e-7)) == "1e-07")
        #expect(CanonicalJSON.text(of: .integer(Int64.min)) == "-9223372036854775808")
        #expect(JSONValue.number(normalizing: 3.0) == .integer(3))
    }

    @Test func aDiffSpeaksTheEventVocabulary() {
        let rules = RulesIdentity(version: 1, hash: "")
        let tabs = { (active: Int, stack: [SavedNode]) in
            SavedNode(entry: "root", children: [SavedNode(entry: "tabs", children: stack, active: active)], active: 0)
        }
        let a = SavedNode(entry: "a", children: [SavedNode(entry: Entry("item", context: ["id": 7]))], active: 0)
        let b = SavedNode(entry: "b", children: [SavedNode(entry: "list")], active: 0)
        let old = SnapshotDocument(rules: rules, tree: tabs(1, [a, b]))
        let new = SnapshotDocument(rules: RulesIdentity(version: 2, hash: ""), tree: tabs(0, [a, SavedNode(entry: "b")]))
        #expect(SnapshotDiff.lines(from: old, to: new) == [
            "leave list", "switch tabs -> a", "enter item {id=7}", "rules: version 1 -> 2",
        ])
        #expect(SnapshotDiff.lines(from: old, to: old).isEmpty)
        // A kept stack that changed while neither snapshot showed it.
        let c = SavedNode(entry: "c", children: [SavedNode(entry: "deep")], active: 0)
        let before = SnapshotDocument(rules: rules, tree: tabs(0, [a, b, c]))
        let after = SnapshotDocument(rules: rules, tree: tabs(0, [a, b, SavedNode(entry: "c")]))
        #expect(SnapshotDiff.lines(from: before, to: after) == ["kept tabs > c: c > deep -> c"])
        // A tab bar inside a kept stack: its own kept tab changed, below what either shows.
        let inner = { (kept: SavedNode) in
            SavedNode(entry: "c", children: [SavedNode(entry: "inner", children: [SavedNode(entry: "x"), kept], active: 0)], active: 0)
        }
        let deep = SnapshotDocument(rules: rules, tree: tabs(0, [a, b, inner(SavedNode(entry: "y", children: [SavedNode(entry: "z")], active: 0))]))
        let shallow = SnapshotDocument(rules: rules, tree: tabs(0, [a, b, inner(SavedNode(entry: "y"))]))
        #expect(SnapshotDiff.lines(from: deep, to: shallow) == ["kept inner > y: y > z -> y"])
        // Switch histories, each switch on its line.
        let history = SnapshotDocument(rules: rules, tree: tabs(0, [a, b]), switchHistory: ["tabs": ["b", Entry("a", context: ["n": 1])]])
        #expect(SnapshotDiff.lines(from: SnapshotDocument(rules: rules, tree: history.tree), to: history) == ["switch history tabs: (none) -> b, a {n=1}"])
    }
}
