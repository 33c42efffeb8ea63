/// The handlers bound to nodes, found by the graph's node index: how a route finds the handlers
/// of each planned step (`PlannedRoute` carries the node's index), without hashing its id as the
/// bindings by id (`RouterState.nodes`) would on every instruction.
///
/// A router's graph never changes (a restore must bring a tree of the same graph), so the indices
/// stay valid. The table is a slot per node of the graph, an `Int`, allocated at the first binding;
/// the handlers themselves are kept once each, however large the app.
struct NodeIndexBindings {
    /// For each node index, 1 + where its handlers are in `bound`; 0 for a node never bound.
    private var slots: [Int] = []
    private var bound: [NodeHandlers?] = []
    /// How many of the graph's nodes have a `canLeave` bound: with none, a plan asks nobody.
    private(set) var canLeaveCount = 0
    /// How many have a guard: with none, a route's decision looks up no node.
    private(set) var guardCount = 0

    /// Binds `handlers` to the node `id` of `graph` (nil unbinds); an id the graph does not
    /// declare is only found by id.
    mutating func bind(_ handlers: NodeHandlers?, to id: NodeID, in graph: NavigationGraph) {
        guard let index = graph.index(of: id) else { return }
        if slots.isEmpty {
            slots = Array(repeating: 0, count: graph.table.count)
        }
        let slot = slots[index]
        if slot > 0 {
            canLeaveCount -= bound[slot - 1]?.canLeave == nil ? 0 : 1
            guardCount -= bound[slot - 1]?.guardRoute == nil ? 0 : 1
            bound[slot - 1] = handlers
        } else if let handlers {
            bound.append(handlers)
            slots[index] = bound.count
        }
        canLeaveCount += handlers?.canLeave == nil ? 0 : 1
        guardCount += handlers?.guardRoute == nil ? 0 : 1
    }

    /// The handlers bound to the node `index`, if any.
    func handlers(ofNode index: Int) -> NodeHandlers? {
        guard slots.indices.contains(index) else { return nil }
        let slot = slots[index]
        return slot > 0 ? bound[slot - 1] : nil
    }
}
