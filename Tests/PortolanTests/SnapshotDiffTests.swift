@testable import Portolan
import Testing

/// `portolan snapshot diff` on the widest tree the format allows (issue 34): a switch of 49,000 kept
/// stacks, two of which differ, gives those two lines. Before, each child's id was searched for in
/// both lists, and this diff ran for more than ten minutes (Benchmarks/README.md has the figures).
@Suite struct SnapshotDiffTests {
    static func wide(changed: Set<Int>) -> SavedNode {
        let children = (0..<49_000).map { index in
            SavedNode(entry: Entry("t\(index)"), children: [SavedNode(entry: Entry("s", context: ["v": .integer(changed.contains(index) ? 1 : 0)]))], active: 0)
        }
        return SavedNode(entry: Entry("root"), children: children, active: 0)
    }

    @Test func aWideSwitchIsDiffedChildByChild() {
        let lines = SnapshotDiff.keptStacks(from: Self.wide(changed: []), to: Self.wide(changed: [5, 48_990]))
        #expect(lines == ["kept root > t5: t5 > s {v=0} -> t5 > s {v=1}", "kept root > t48990: t48990 > s {v=0} -> t48990 > s {v=1}"])
    }

    /// Contexts a screen remembers change what back does, though no instruction says so.
    @Test func rememberedContextsThatDifferAreNamed() {
        var search = Entry("search", context: ["q": .string("b")])
        let old = SavedNode(entry: Entry("root"), children: [SavedNode(entry: search)], active: 0)
        search.earlierContexts = [["q": .string("a")]]
        let new = SavedNode(entry: Entry("root"), children: [SavedNode(entry: search)], active: 0)
        #expect(SnapshotDiff.rememberedContexts(from: old, to: new) == ["earlier contexts of search {q=b}: (none) -> search {q=a}"])
        #expect(SnapshotDiff.rememberedContexts(from: new, to: new).isEmpty)
    }

    @Test func stacksOnlyOneSideHoldsAreNamed() {
        let old = SavedNode(entry: Entry("tabs"), children: [SavedNode(entry: Entry("a")), SavedNode(entry: Entry("b"))], active: 0)
        let new = SavedNode(entry: Entry("tabs"), children: [SavedNode(entry: Entry("a")), SavedNode(entry: Entry("c"))], active: 0)
        #expect(SnapshotDiff.keptStacks(from: old, to: new) == ["kept tabs > b: b -> (none)", "kept tabs > c: (none) -> c"])
    }
}
