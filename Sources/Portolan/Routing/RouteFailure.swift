/// Where a request failed: before it became a route, or while it ran.
public enum FailureStage: String, Sendable, Hashable {
    /// Refused as it was asked for, before any interceptor or handler ran, and before `will_route`:
    /// a URL that matched nothing, was malformed or came from a foreign origin; a destination a
    /// script could not express; a duplicate; a full queue; nowhere to go back to. Its `failed`
    /// event comes alone, where the request was made (`Router.refuse`).
    case request
    /// Failed while it ran: its `failed` event closes the `will_route` that announced it.
    case route
}

/// A route that did not reach its destination: why, where, and what had already run.
///
/// The tree reflects exactly `executed`.
public struct RouteFailure: Error, Hashable, Sendable {
    public var kind: Kind
    /// Why, at most `messageBytes` (the rest cut and marked).
    public var message: String {
        didSet { message = Excerpt.cut(message, toBytes: Self.messageBytes) }
    }
    /// The instruction that failed, when the failure happened at one.
    public var instruction: Instruction?
    /// The instructions that ran before the failure, in order.
    public var executed: [Instruction]
    /// The undo of the route, as it ran: the inverse of each executed instruction, newest first
    /// (`RouterConfiguration.rollsBack`). Empty when nothing was undone.
    public var rolledBack: [Instruction] = []
    /// Why the undo stopped before the tree was back where the route started; the tree then
    /// reflects `executed` followed by `rolledBack`.
    public var rollbackFailure: RollbackFailure?
    /// Whether the request was refused before it became a route, or failed while it ran.
    public var stage: FailureStage = .route
    /// The URL a refused request named, when it never led to a destination (it matched nothing,
    /// was malformed or came from a foreign origin): what broken-link analytics counts.
    public var url: String? {
        didSet { url = url.map { Excerpt.cut($0, toBytes: Self.messageBytes) } }
    }
    /// How a chain of redirects failed to settle, when one did (the kind is then `invalid`): the
    /// guards' and interceptors' redirects, or the URL redirect rules' rewrites.
    public var redirectChain: RedirectChainFailure?
    /// The locations a redirect loop went round, from the one it came back to: `['a', 'b']` for
    /// `a → b → a`, each without the URL that named it. What tells one loop from another wherever it is
    /// entered (the explorer counts a loop once, however many routes run into it).
    public var redirectLoop: [String]?

    public init(_ kind: Kind, _ message: String, instruction: Instruction? = nil, executed: [Instruction] = []) {
        self.kind = kind
        self.message = Excerpt.cut(message, toBytes: Self.messageBytes)
        self.instruction = instruction
        self.executed = executed
    }

    /// How a route failed. Its `rawValue` is the one spelling of each kind (`handler_failed`), which
    /// Lua's error tables, the REPL, events and scenarios all show; `description` is that text.
    public enum Kind: String, Sendable, CaseIterable, CustomStringConvertible {
        /// The destination is not in the graph, or cannot be reached from the tree's root.
        case unreachable
        /// A node on the way refused to be left (`canLeave`).
        case blocked
        /// An interceptor denied the route.
        case denied
        /// A node's handler failed.
        case handlerFailed = "handler_failed"
        /// A handler or interceptor did not finish in time.
        case timeout
        /// The route was cancelled before it finished.
        case cancelled
        /// The request itself was malformed, or the tree changed under the route.
        case invalid
        /// The same route was already running or queued last: the request was dropped.
        case duplicated

        /// The kind as Lua, the REPL and scenarios spell it: `handler_failed`.
        public var description: String { rawValue }
    }
}

/// The name `RouteFailure.Kind` had before it moved into `RouteFailure`.
@available(*, deprecated, renamed: "RouteFailure.Kind")
public typealias FailureKind = RouteFailure.Kind

/// Why a chain of redirects did not settle: it came back to a location it had seen, or it went on
/// past its limit (`max_redirects`) without repeating one. go_router tells the two apart too: a
/// loop is a mistake in the rules, a long chain may only need a higher limit.
public enum RedirectChainFailure: String, Sendable, Hashable {
    case loop
    case tooLong = "too_long"
}

extension RouteFailure {
    /// Why a chain of redirects whose last location was just added cannot go on: it came back to
    /// a location it had (`"<loop>: 'a' → 'b' → 'a'"`), or has more redirects than `limit`
    /// (`"<tooLong>: more than 8: 'a' → …"`); nil while it may. The one judge of both redirect
    /// chains, the decisions' (`RouteDecision`) and the URL rules' (`URLRedirects`). `place` names a
    /// location in `redirectLoop`: where it is, whichever URL led there.
    static func unsettled<Location>(
        _ chain: [Location], limit: Int, words: (loop: String, tooLong: String),
        isSame: (Location, Location) -> Bool, shown: (Location) -> String, place: (Location) -> String
    ) -> RouteFailure? {
        guard let last = chain.last else { return nil }
        let end: RedirectChainFailure
        let loopStart = chain.dropLast().firstIndex { isSame($0, last) }
        if loopStart != nil {
            end = .loop
        } else if chain.count - 1 > limit {
            end = .tooLong
        } else {
            return nil
        }
        let links = chain.map(shown).joined(separator: " → ")
        var failure = RouteFailure(.invalid, end == .loop ? "\(words.loop): \(links)" : "\(words.tooLong): more than \(limit): \(links)")
        failure.redirectChain = end
        if let loopStart { failure.redirectLoop = chain[loopStart..<(chain.count - 1)].map(place) }
        return failure
    }
}

/// How a step of a failed route's undo failed.
public struct RollbackFailure: Hashable, Sendable, CustomStringConvertible {
    public var kind: RouteFailure.Kind
    public var message: String
    /// The undo step that failed.
    public var instruction: Instruction?

    public init(_ failure: RouteFailure) {
        kind = failure.kind
        message = failure.message
        instruction = failure.instruction
    }

    /// `handler_failed at leave b: no way back`
    public var description: String {
        "\(kind)" + (instruction.map { " at \($0)" } ?? "") + ": " + message
    }
}

extension RouteFailure {
    /// The most bytes of a failure's message. A handler's error becomes the message of its
    /// route's failure, which the history, journals, reports and every observer keep: a script
    /// may raise an error as large as its memory cap, and 64 KiB holds any message meant to be
    /// read, a long stack traceback included.
    public static let messageBytes = 64 << 10

    /// An entry with an empty id or a number that is not finite, refused before anything runs, in
    /// the tree's words (`TreeUpdateError.malformedEntry`).
    static func malformed(_ entry: Entry) -> RouteFailure {
        RouteFailure(.invalid, TreeUpdateError.malformedEntry(entry).description)
    }

    /// A node refused to be left.
    static func blocked(_ entry: Entry) -> RouteFailure {
        RouteFailure(.blocked, "'\(entry)' refused to be left", instruction: .leave(entry))
    }
}

extension RouteFailure: CustomStringConvertible {
    /// `handler_failed at enter movie {id=7}: network down (after 2 instructions)`
    public var description: String {
        var text = kind.description
        if let instruction { text += " at \(instruction)" }
        text += ": \(message)"
        if !executed.isEmpty {
            text += " (after \(executed.count) instruction\(executed.count == 1 ? "" : "s"))"
        }
        if let rollbackFailure {
            text += "; the rollback failed: \(rollbackFailure)"
        }
        return text
    }
}
