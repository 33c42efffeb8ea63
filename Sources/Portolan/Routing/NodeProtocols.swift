/// What a handler learns about the instruction it executes.
public struct InstructionInfo: Sendable, Equatable {
    public let instruction: Instruction
    /// Where the route that runs the instruction goes, after any redirect.
    public let destination: Destination
    /// The URL the route was asked for (its query and fragment), when it was asked for by URL and
    /// not redirected elsewhere.
    public let url: URLResolution?
    /// The instruction's position in its route, from 0, and how many instructions the route has:
    /// a host that shows a deep link at once changes its screens without animation until the last.
    public let index: Int
    public let count: Int
    /// Whether the host should animate this step: the last one only, unless the router animates
    /// each step (`RouterConfiguration.animatesEachStep`).
    public let animated: Bool
    /// The step that asked for the route, if one did.
    public let step: RouteStep?

    public init(
        instruction: Instruction, destination: Destination, url: URLResolution? = nil, index: Int = 0, count: Int = 1,
        animated: Bool? = nil, step: RouteStep? = nil
    ) {
        self.instruction = instruction
        self.destination = destination
        self.url = url
        self.index = index
        self.count = count
        self.animated = animated ?? (index == count - 1)
        self.step = step
    }

    /// Whether this is the route's last instruction.
    public var isLast: Bool { index == count - 1 }
}

/// An object bound to a node id, which the router calls when that node is entered, left, switched,
/// updated or moved. Conform to `Enterable`, `Leavable`, `Switchable`, `Updatable` and `Movable` for the
/// instructions the node handles, and to `Guarded` for a guard on the routes through it; a node
/// with no handler for an instruction succeeds by default.
///
/// Handlers are `async` and fail by throwing. They run on the cooperative pool while the route,
/// on the router's thread, waits for each one within its time limit; the route's unit of work
/// stays whole meanwhile (no other route or host operation runs).
public protocol Routable: Sendable {}

/// A node that does something when it is entered (shows its screen).
public protocol Enterable: Routable {
    func enter(_ entry: Entry, info: InstructionInfo) async throws
}

/// A node that does something when it is left, and may refuse to be left.
///
/// Nodes not managed by their parent are leavable by default; implement `canLeave` to veto
/// (an unsaved form). Every node a route would leave is asked, in order, before anything runs.
public protocol Leavable: Routable {
    func canLeave(_ entry: Entry) async throws -> Bool
    func leave(_ entry: Entry, info: InstructionInfo) async throws
}

extension Leavable {
    public func canLeave(_ entry: Entry) async throws -> Bool { true }
    public func leave(_ entry: Entry, info: InstructionInfo) async throws {}
}

/// A switch node that does something when one of its children becomes active (selects a tab).
public protocol Switchable: Routable {
    func switchTo(_ child: Entry, info: InstructionInfo) async throws
}

/// A node that shows another context without being left and entered again (a product page that
/// takes a new colour, a list that takes a new filter): told when the router updates it in place.
public protocol Updatable: Routable {
    /// `entry` is the node's new entry; `info.instruction` is `.update(old, to: entry)`.
    func update(_ entry: Entry, info: InstructionInfo) async throws
}

/// A screen that is moved within its stack without being left and entered again (brought to the
/// front, say): told when the router moves it. Its removal from below the top is told to
/// `Leavable.leave`, and its insertion there to `Enterable.enter`, with the instruction in `info`.
public protocol Movable: Routable {
    /// `info.instruction` is `.move(entry, under: upper)`: it now stands under `upper`, or on top.
    func move(_ entry: Entry, info: InstructionInfo) async throws
}

/// A node that guards every route to it or through it (a sign-in wall, a paywall): asked before
/// the route runs anything, after the router's interceptors, whether or not the route enters the
/// node now. A route that passes several guarded nodes asks them from the root down.
public protocol Guarded: Routable {
    /// Decides as an interceptor does. It also runs for plans (`request.isDryRun`), so it must
    /// change nothing.
    func guardRoute(_ request: RouteRequest) async throws -> InterceptionDecision
}

/// Thrown by a handler that ran out of time (see `NodeHandlers`); the route fails as `timeout`.
public struct HandlerTimeout: Error, CustomStringConvertible, Sendable {
    public let message: String

    /// `message`, cut as a route failure's is (`RouteFailure.messageBytes`).
    public init(_ message: String) {
        self.message = Excerpt.cut(message, toBytes: RouteFailure.messageBytes)
    }

    public var description: String { message }
}

/// A failure a handler reports in words.
public struct HandlerError: Error, CustomStringConvertible, Sendable {
    public let message: String

    /// `message`, cut as a route failure's is (`RouteFailure.messageBytes`).
    public init(_ message: String) {
        self.message = Excerpt.cut(message, toBytes: RouteFailure.messageBytes)
    }

    public var description: String { message }
}
