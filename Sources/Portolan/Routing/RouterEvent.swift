/// Something the router did, in the order it did it.
public enum RouterEvent: Sendable, Hashable {
    /// A route is about to run, to the destination it was asked for.
    case willRoute(Destination)
    /// An instruction ran and the tree reflects it.
    case instruction(Instruction)
    /// A route reached its destination (after any redirect) with these instructions.
    case didRoute(Destination, executed: [Instruction])
    /// A route failed; the tree reflects `failure.executed`. A request refused before it became a
    /// route (`failure.stage == .request`: a URL that led nowhere, a duplicate…) fails too, with
    /// no `will_route` before it, and an empty destination when it had none (`failure.url` then
    /// holds the URL it named).
    case failed(Destination, RouteFailure)
    /// The host reported a change it made itself.
    case hostReported(Instruction)
    /// A guard or an interceptor sent the route elsewhere.
    case redirected(from: Destination, to: Destination)
    /// A step of the undo of a failed route ran (the inverse of an instruction it executed).
    case rolledBack(Instruction)
    /// A rules change (a reload, a swap) or a restore set the whole tree, kept stacks included,
    /// beyond what any instruction builds; `changes` says what carrying the state changed, in
    /// every stack (empty when nothing was renamed, moved or lost). A UI that keeps the stacks of
    /// its other tabs rebuilds them from `Router.tree` when it hears this.
    case treeCarried([SnapshotChange])
}

extension RouterEvent {
    /// The names of events: the one list of them. Scripts observe events by these names
    /// (`portolan.on`; the host hands the module the list), and each event's text starts with its own.
    public enum Name: String, CaseIterable, Sendable {
        case willRoute = "will_route"
        case instruction
        case didRoute = "did_route"
        case failed
        case redirected
        case rolledBack = "rolled_back"
        case hostReported = "host_reported"
        case treeCarried = "tree_carried"
    }

    public var name: Name {
        switch self {
        case .willRoute: .willRoute
        case .instruction: .instruction
        case .didRoute: .didRoute
        case .failed: .failed
        case .redirected: .redirected
        case .rolledBack: .rolledBack
        case .hostReported: .hostReported
        case .treeCarried: .treeCarried
        }
    }
}

extension RouterEvent: CustomStringConvertible {
    /// Canonical text, what scenarios assert with `expect_events` and the inspector lists: the
    /// event's name as Lua observers know it, then what it is about, without messages (they
    /// change with the wording of handlers' errors, not with the navigation).
    ///
    /// `will_route root > a`, `enter a`, `switch root -> tabs`, `did_route root > a`,
    /// `failed denied root > a`, `failed unreachable /nowhere` (a URL that led nowhere),
    /// `redirected root > a -> root > login`, `rolled_back leave a`,
    /// `host_reported enter a`, `tree_carried renamed 'a' → 'b' (version 2); dropped 'c': …`.
    ///
    /// At most `textBytes`, the rest cut and marked (`… (123456 bytes cut)`); each context value in
    /// it is cut at `ContextValue.shownBytes` first.
    public var description: String {
        Excerpt.cut(wholeText, toBytes: Self.textBytes)
    }

    /// The most bytes of an event's text. Journals keep up to 10,000 texts, the REPL and the
    /// inspector show them: 16 KiB holds a destination of many entries with their contexts, while
    /// one with thousands of context keys (a script's table may be as large as its memory cap)
    /// no longer makes every observer keep a copy of it.
    public static let textBytes = 16 << 10

    private var wholeText: String {
        let name = name.rawValue
        return switch self {
        case .willRoute(let destination): "\(name) \(destination)"
        case .instruction(let instruction): "\(instruction)"
        case .didRoute(let destination, _): "\(name) \(destination)"
        case .failed(let destination, let failure): "\(name) \(failure.kind.rawValue) \(destination.requestText(failure: failure))"
        case .hostReported(let instruction): "\(name) \(instruction)"
        case .redirected(let from, let to): "\(name) \(from) -> \(to)"
        case .rolledBack(let instruction): "\(name) \(instruction)"
        case .treeCarried(let changes): changes.isEmpty ? name : "\(name) " + changes.map(\.description).joined(separator: "; ")
        }
    }
}

extension RouterEvent {
    /// The canonical text with a failure's message after it, as logs show events (the REPL's
    /// `:events`, the inspector): `failed unreachable /nowhere: unreachable: no route matches '/nowhere'`.
    public var textWithMessage: String {
        guard case .failed(_, let failure) = self else { return description }
        return description + ": \(failure)"
    }
}
