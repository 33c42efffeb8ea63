/// What the router calls for one node, resolved once when the node is bound: a node without a
/// `leave` or a `canLeave` costs nothing for those instructions.
///
/// The closures run synchronously on the router's thread, inside the route's unit of work. They
/// keep the router's time limit themselves (a scripting host that waits on a script's behalf knows
/// its deadline) and throw `HandlerTimeout` when it passes. Swift objects with `async` handlers are
/// bound with `Router.bind(_:to:)`, which wraps them in a `NodeHandlers` that waits for them.
public struct NodeHandlers: Sendable {
    // @unchecked: the router calls these only on its own thread, one at a time.
    public var enter: (@Sendable (Entry, InstructionInfo) throws -> Void)?
    public var leave: (@Sendable (Entry, InstructionInfo) throws -> Void)?
    public var switchTo: (@Sendable (Entry, InstructionInfo) throws -> Void)?
    /// Told the entry's new context when the node is updated in place (`Instruction.update`); the
    /// context it had is in the info's instruction.
    public var update: (@Sendable (Entry, InstructionInfo) throws -> Void)?
    /// Told the entry when the screen moves within its stack (`Instruction.move`); where to is in
    /// the info's instruction. A removal is told to `leave`, and an insertion to `enter`.
    public var move: (@Sendable (Entry, InstructionInfo) throws -> Void)?
    public var canLeave: (@Sendable (Entry) throws -> Bool)?
    /// The node's guard: asked about every route that ends at the node or passes through it,
    /// whether or not the route enters it now, after the router's interceptors and before the
    /// planner. It decides as an interceptor does (`InterceptionDecision`), and must change nothing.
    public var guardRoute: (@Sendable (RouteRequest) throws -> InterceptionDecision)?
    /// RouteComposer's context task: after a route succeeds, called for every node on its
    /// destination, entered now or already there, with the node's entry and the destination, so a
    /// screen that was found rather than entered still takes the route's context.
    public var contextTask: (@Sendable (Entry, Destination) throws -> Void)?

    public init(
        enter: (@Sendable (Entry, InstructionInfo) throws -> Void)? = nil,
        leave: (@Sendable (Entry, InstructionInfo) throws -> Void)? = nil,
        switchTo: (@Sendable (Entry, InstructionInfo) throws -> Void)? = nil,
        update: (@Sendable (Entry, InstructionInfo) throws -> Void)? = nil,
        move: (@Sendable (Entry, InstructionInfo) throws -> Void)? = nil,
        canLeave: (@Sendable (Entry) throws -> Bool)? = nil,
        guardRoute: (@Sendable (RouteRequest) throws -> InterceptionDecision)? = nil,
        contextTask: (@Sendable (Entry, Destination) throws -> Void)? = nil
    ) {
        self.enter = enter
        self.leave = leave
        self.switchTo = switchTo
        self.update = update
        self.move = move
        self.canLeave = canLeave
        self.guardRoute = guardRoute
        self.contextTask = contextTask
    }

    /// Whether the node has a handler for `instruction`.
    func handles(_ instruction: Instruction) -> Bool {
        switch instruction {
        case .enter, .insert: enter != nil
        case .leave, .remove: leave != nil
        case .switch: switchTo != nil
        case .update: update != nil
        case .move: move != nil
        }
    }

    /// Runs the node's handler for `instruction`, if it has one (no closure is made per call).
    func run(_ instruction: Instruction, info: InstructionInfo) throws {
        switch instruction {
        case .enter(let entry), .insert(let entry, _): try enter?(entry, info)
        case .leave(let entry), .remove(let entry): try leave?(entry, info)
        case .switch(_, let child): try switchTo?(child, info)
        case .update(_, let updated): try update?(updated, info)
        case .move(let entry, _): try move?(entry, info)
        }
    }

    /// Runs the node's handler for `instruction`, as `run` does, and says how its failure fails the
    /// route (`RouteFailure(thrownBy:)`); nil when it succeeded.
    func failure(running instruction: Instruction, info: InstructionInfo) -> RouteFailure? {
        do {
            try run(instruction, info: info)
            return nil
        } catch {
            return RouteFailure(thrownBy: .handler(instruction), error)
        }
    }
}

extension NodeHandlers {
    /// Handlers that call a Swift object's `async` methods and wait for them on the router's thread.
    package init(waitingFor node: any Routable, router: Router) {
        self.init()
        let wait = AsyncHandlerWait(router: router)
        if let enterable = node as? any Enterable {
            enter = { entry, info in try wait.run { try await enterable.enter(entry, info: info) } }
        }
        if let leavable = node as? any Leavable {
            leave = { entry, info in try wait.run { try await leavable.leave(entry, info: info) } }
            canLeave = { entry in try wait.answer { try await leavable.canLeave(entry) } ?? true }
        }
        if let guarded = node as? any Guarded {
            guardRoute = { request in try wait.answer { try await guarded.guardRoute(request) } ?? .pass }
        }
        if let switchable = node as? any Switchable {
            switchTo = { child, info in try wait.run { try await switchable.switchTo(child, info: info) } }
        }
        if let updatable = node as? any Updatable {
            update = { entry, info in try wait.run { try await updatable.update(entry, info: info) } }
        }
        if let movable = node as? any Movable {
            move = { entry, info in try wait.run { try await movable.move(entry, info: info) } }
        }
    }
}
