/// RxFlow's flow: the app says what happened (a step, `movie_picked` with a payload), and a flow
/// decides where it leads. A router asks its flows in the order they were added
/// (`Router.addFlow(_:)`); the first that names a target routes there, the step travelling with
/// the route. Flows are asked on the router's thread, one call at a time, as handlers are
/// (`NodeHandlers`), and like interceptors they must change nothing.
public struct Flow: Sendable {
    // @unchecked: its closures are called only on the router's thread, one at a time.

    /// How the flow is named in messages and in `portolan graph`.
    public let name: String
    /// The names of the steps it handles, sorted: what `portolan graph` lists and `explore` tries.
    public let steps: [String]
    /// Where a step leads, or nil to leave it to the flows after this one.
    public let target: @Sendable (RouteStep) throws -> RouteTarget?
    /// RxFlow's adapter: sees each step that reaches this flow first, and may let it through,
    /// change it (the flows after this one see the changed step) or refuse it.
    public let adapt: (@Sendable (RouteStep) throws -> StepAdaptation)?

    public init(
        name: String, steps: some Sequence<String>, adapt: (@Sendable (RouteStep) throws -> StepAdaptation)? = nil,
        target: @escaping @Sendable (RouteStep) throws -> RouteTarget?
    ) {
        self.name = name
        self.steps = Set(steps).sorted()
        self.adapt = adapt
        self.target = target
    }
}

/// What a flow's adapter makes of a step.
public enum StepAdaptation: Sendable, Hashable {
    /// The step goes on as it is.
    case keep
    /// The step goes on as this one.
    case step(RouteStep)
    /// The step goes nowhere: it is refused as `denied`, naming the flow.
    case refuse
}
