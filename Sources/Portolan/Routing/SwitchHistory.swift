/// For the switch nodes that go back through their history (`TabBackBehavior.history` and
/// `.fullHistory`): the children each switched away from, newest last, so that `back` returns to
/// them (Android's bottom navigation, React Navigation's `backBehavior`).
struct SwitchHistory {
    private var children: [NodeID: [Entry]] = [:]

    /// How many switches back a switch node's history reaches: without a bound, every tab tap of a
    /// long session stayed in memory (the soak found it).
    static let limit = 1_000

    /// Every switch node's history, oldest first (what a snapshot saves).
    var all: [NodeID: [Entry]] { children }

    init() {}

    /// The histories a snapshot restores, each within the limit.
    init(restoring histories: [NodeID: [Entry]]) {
        children = histories.mapValues { Array($0.suffix(Self.limit)) }
    }

    /// Records that `switchNode` switched away from `child` to `target`, forgetting the oldest entry
    /// past the limit. With `back` `.history`, each child stands once, where it was left last, and
    /// the child switched to is no longer one to go back to; `.fullHistory` remembers every switch.
    mutating func record(awayFrom child: Entry, to target: NodeID, in switchNode: NodeID, back: TabBackBehavior) {
        if back == .history { children[switchNode]?.removeAll { $0.id == child.id || $0.id == target } }
        children[switchNode, default: []].append(child)
        let excess = (children[switchNode]?.count ?? 0) - Self.limit
        if excess > 0 { children[switchNode]?.removeFirst(excess) }
    }

    /// The child `switchNode` switched away from last; nil when it has none to return to.
    func previous(in switchNode: NodeID) -> Entry? {
        children[switchNode]?.last
    }

    /// How many children `switchNode`'s history holds.
    func count(in switchNode: NodeID) -> Int {
        children[switchNode]?.count ?? 0
    }

    /// Keeps only the oldest `count` children of `switchNode`'s history (none for a count below 1).
    mutating func keep(first count: Int, in switchNode: NodeID) {
        children[switchNode] = Array((children[switchNode] ?? []).prefix(max(0, count)))
    }
}
