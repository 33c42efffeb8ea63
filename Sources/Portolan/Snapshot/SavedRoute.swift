/// A finished route as a snapshot keeps it: what `Router.history` holds, without what only the
/// running process can use (the failed instruction and the undo).
struct SavedRoute: Sendable, Equatable {
    let requested: Destination
    let settled: Destination
    let executed: [Instruction]
    let failure: (kind: FailureKind, message: String)?

    init(_ record: RouteRecord) {
        requested = record.requested
        settled = record.settled
        executed = record.executed
        failure = record.failure.map { ($0.kind, $0.message) }
    }

    static func == (lhs: SavedRoute, rhs: SavedRoute) -> Bool {
        lhs.requested == rhs.requested && lhs.settled == rhs.settled && lhs.executed == rhs.executed
            && lhs.failure?.kind == rhs.failure?.kind && lhs.failure?.message == rhs.failure?.message
    }

    /// The record the router's history holds again after a restore.
    var record: RouteRecord {
        RouteRecord(
            requested: requested, settled: settled, executed: executed,
            failure: failure.map { RouteFailure($0.kind, $0.message, executed: executed) })
    }

    var json: JSONValue {
        var members: [String: JSONValue] = [
            "requested": SnapshotFields.destination(requested), "settled": SnapshotFields.destination(settled),
            "executed": .array(executed.map(SnapshotFields.instruction)),
        ]
        if let failure { members["failure"] = .object(["kind": .string(failure.kind.rawValue), "message": .string(failure.message)]) }
        return .object(members)
    }

    init(json: JSONValue, path: String) throws(SnapshotError) {
        guard let members = json.objectValue else { throw .field(path, "an object") }
        requested = try SnapshotFields.destination(members["requested"] ?? .null, path: path + ".requested", record: true)
        settled = try SnapshotFields.destination(members["settled"] ?? .null, path: path + ".settled", record: true)
        guard let list = members["executed"]?.arrayValue, list.count <= 2 * NavigationGraph.maximumDepth + 2 else {
            throw .field(path + ".executed", "an array of instructions")
        }
        var executed: [Instruction] = []
        for (index, element) in list.enumerated() {
            executed.append(try SnapshotFields.instruction(element, path: "\(path).executed[\(index)]"))
        }
        self.executed = executed
        guard let saved = members["failure"] else {
            failure = nil
            return
        }
        guard let fields = saved.objectValue, let kind = fields["kind"]?.stringValue.flatMap(FailureKind.init(rawValue:)),
            let message = fields["message"]?.stringValue
        else { throw .field(path + ".failure", "an object with a failure kind and a message") }
        failure = (kind, message)
    }
}
