import Portolan

/// The states an exploration visited, in the order breadth-first search met them, each read as an
/// `ExploreReport.VisitedState`. Kept compact, since an exploration may visit millions: a state is
/// its fingerprint and four 32-bit numbers (its depth, its parent, and where its path and its
/// parent's action are in tables of one copy each), 32 bytes; most states share their path with
/// thousands of others (docs/explore.md, "What a state is").
public struct VisitedStates: RandomAccessCollection, Sendable {
    private struct Compact: Sendable {
        var fingerprint: UInt64
        var path: UInt32
        var depth: UInt32
        /// `UInt32.max` for the start, which has none.
        var parent: UInt32
        var parentAction: UInt32
        var expanded: Bool
    }

    private var compact: [Compact] = []
    private var paths: [[Entry]] = []
    private var pathIndex: [[Entry]: UInt32] = [:]
    private var actions: [ExploreAction] = []
    private var actionIndex: [ExploreAction: UInt32] = [:]

    public init() {}

    /// What one state costs here, less its share of the tables.
    static var bytesPerState: Int { MemoryLayout<Compact>.stride }

    public var startIndex: Int { 0 }
    public var endIndex: Int { compact.count }

    public subscript(position: Int) -> ExploreReport.VisitedState {
        let state = compact[position]
        let parent = state.parent == .max ? nil : (index: Int(state.parent), action: actions[Int(state.parentAction)])
        return ExploreReport.VisitedState(
            path: paths[Int(state.path)], fingerprint: state.fingerprint, depth: Int(state.depth), parent: parent,
            expanded: state.expanded)
    }

    /// The fingerprint of state `position`, without reading the rest.
    func fingerprint(of position: Int) -> UInt64 { compact[position].fingerprint }

    /// The distinct active paths the states show. (Paths are told apart as the report shows them:
    /// by their entries, not the contexts an entry remembers.)
    var distinctPaths: [[Entry]] { paths }

    /// Adds a state; its depth and the indices are bounded by what 32 bits hold, far past any
    /// limit of an exploration (`ExploreOptions` keeps its depth and states below them).
    mutating func append(path: [Entry], fingerprint: UInt64, depth: Int, parent: (index: Int, action: ExploreAction)?) {
        compact.append(Compact(
            fingerprint: fingerprint, path: Self.place(path, in: &paths, index: &pathIndex),
            depth: UInt32(clamping: depth), parent: parent.map { UInt32(clamping: $0.index) } ?? .max,
            parentAction: parent.map { Self.place($0.action, in: &actions, index: &actionIndex) } ?? 0, expanded: false))
    }

    mutating func setExpanded(_ position: Int, _ expanded: Bool) { compact[position].expanded = expanded }

    private static func place<Value: Hashable>(_ value: Value, in table: inout [Value], index: inout [Value: UInt32]) -> UInt32 {
        if let known = index[value] { return known }
        let position = UInt32(clamping: table.count)
        table.append(value)
        index[value] = position
        return position
    }
}

extension VisitedStates: ExpressibleByArrayLiteral {
    /// `[]`: no state yet.
    public init(arrayLiteral states: ExploreReport.VisitedState...) {
        self.init()
        for state in states {
            append(path: state.path, fingerprint: state.fingerprint, depth: state.depth, parent: state.parent)
            setExpanded(count - 1, state.expanded)
        }
    }
}
