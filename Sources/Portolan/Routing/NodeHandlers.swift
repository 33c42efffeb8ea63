/// What the router calls for one node, resolved once when the node is bound: a node without a
/// `leave` or a `canLeave` costs nothing for those instructions.
///
/// The closures run synchronously on the router's thread, inside the route's unit of work. They
/// keep the router's time limit themselves (a scripting host that waits on a script's behalf knows
/// its deadline) and throw `HandlerTimeout` when it passes. Swift objects with `async` handlers are
/// bound with `Router.bind(_:to:)`, which wraps them in a `NodeHandlers` that waits for them.
public struct NodeHandlers: @unchecked Sendable {
    // @unchecked: the router calls these only on its own thread, one at a time.
    public var enter: ((Entry, InstructionInfo) throws -> Void)?
    public var leave: ((Entry, InstructionInfo) throws -> Void)?
    public var switchTo: ((Entry, InstructionInfo) throws -> Void)?
    public var canLeave: ((Entry) throws -> Bool)?
    /// RouteComposer's context task: after a route succeeds, called for every node on its
    /// destination, entered now or already there, with the node's entry and the destination, so a
    /// screen that was found rather than entered still takes the route's context.
    public var contextTask: ((Entry, Destination) throws -> Void)?

    public init(
        enter: ((Entry, InstructionInfo) throws -> Void)? = nil,
        leave: ((Entry, InstructionInfo) throws -> Void)? = nil,
        switchTo: ((Entry, InstructionInfo) throws -> Void)? = nil,
        canLeave: ((Entry) throws -> Bool)? = nil,
        contextTask: ((Entry, Destination) throws -> Void)? = nil
    ) {
        self.enter = enter
        self.leave = leave
        self.switchTo = switchTo
        self.canLeave = canLeave
        self.contextTask = contextTask
    }

    /// Whether the node has a handler for `instruction`.
    func handles(_ instruction: Instruction) -> Bool {
        switch instruction {
        case .enter: enter != nil
        case .leave: leave != nil
        case .switch: switchTo != nil
        }
    }

    /// Runs the node's handler for `instruction`, if it has one (no closure is made per call).
    func run(_ instruction: Instruction, info: InstructionInfo) throws {
        switch instruction {
        case .enter(let entry): try enter?(entry, info)
        case .leave(let entry): try leave?(entry, info)
        case .switch(_, let child): try switchTo?(child, info)
        }
    }
}

/// An interceptor as the router calls it: synchronously, on its thread (see `NodeHandlers`).
public struct InterceptorHandler: @unchecked Sendable {
    // @unchecked: called only on the router's thread, one at a time.
    public let decide: (RouteRequest) throws -> InterceptionDecision

    public init(_ decide: @escaping (RouteRequest) throws -> InterceptionDecision) {
        self.decide = decide
    }
}
