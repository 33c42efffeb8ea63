import Portolan
import Synchronization
import Tracing

/// A router's events made spans: one per route, from `will_route` to `did_route` or `failed`, and
/// one for a request refused before it became a route (`failed` alone), so that no navigation is
/// lost, a denied or a no-op one included. Fed in the order the router emits, on its thread.
final class RouteSpans: Sendable {
    private let tracer: any Tracer
    private let slowInstruction: Duration
    private let state = Mutex(State())

    private struct State {
        /// The routes begun and not ended: one, unless a route's handler routed in turn.
        var open: [OpenRoute] = []
        /// The active path as the last route left it; nil when unknown (a reload or a restore
        /// carried the tree since, or a route failed midway and was not undone).
        var activePath: [Entry]?
    }

    private struct OpenRoute {
        let span: any Span
        let requested: Destination
        var redirects: [String] = []
        var rolledBack = 0
        var lastStep: ContinuousClock.Instant
    }

    init(tracer: any Tracer, slowInstruction: Duration, activePath: [Entry]?) {
        self.tracer = tracer
        self.slowInstruction = slowInstruction
        state.withLock { $0.activePath = activePath }
    }

    func hear(_ event: RouterEvent) {
        state.withLock { state in
            switch event {
            case .willRoute(let destination): begin(destination, in: &state)
            case .redirected(_, let to): state.open.indices.last.map { state.open[$0].redirects.append(to.description) }
            case .instruction(let instruction): step(instruction, in: &state)
            case .rolledBack: state.open.indices.last.map { state.open[$0].rolledBack += 1 }
            case .didRoute(let destination, let executed): succeed(at: destination, executed: executed, in: &state)
            case .failed(let destination, let failure): fail(at: destination, failure, in: &state)
            case .treeCarried: state.activePath = nil
            case .hostReported: break
            }
        }
    }

    private func begin(_ destination: Destination, in state: inout State) {
        let span = tracer.startSpan(Self.name(of: destination), context: .topLevel, ofKind: .internal)
        var attributes = SpanAttributes()
        Self.describe(destination, from: state.activePath, into: &attributes)
        span.attributes = attributes
        state.open.append(OpenRoute(span: span, requested: destination, lastStep: .now))
    }

    /// An instruction ran: counted, and an event on the span when it (its handlers, mostly) took
    /// `slowInstruction` or longer, timed from the step before it.
    private func step(_ instruction: Instruction, in state: inout State) {
        guard let last = state.open.indices.last else { return }
        let now = ContinuousClock.now
        let took = now - state.open[last].lastStep
        state.open[last].lastStep = now
        guard took >= slowInstruction else { return }
        var attributes = SpanAttributes()
        attributes[NavigationAttributes.instruction] = instruction.description
        attributes[NavigationAttributes.durationMilliseconds] = Self.milliseconds(took)
        state.open[last].span.addEvent(SpanEvent(name: NavigationAttributes.slowHandlerEvent, attributes: attributes))
    }

    private func succeed(at destination: Destination, executed: [Instruction], in state: inout State) {
        guard let route = state.open.popLast() else { return }
        let outcome: RouteOutcome = route.redirects.isEmpty ? .done : .redirected
        route.span.attributes[NavigationAttributes.outcome] = outcome.rawValue
        route.span.attributes[NavigationAttributes.instructions] = executed.count
        Self.describeEnd(of: route, settled: destination)
        route.span.end()
        state.activePath = destination.isRelativeToLiveTree ? nil : destination.namedEntries
    }

    /// A route that failed, or a request refused before it became one (no `will_route`: its span
    /// begins and ends here).
    private func fail(at destination: Destination, _ failure: RouteFailure, in state: inout State) {
        if state.open.isEmpty { begin(destination, in: &state) }
        guard let route = state.open.popLast() else { return }
        let outcome: RouteOutcome =
            failure.kind == .denied ? .denied : failure.rolledBack.isEmpty ? .failed : .rolledBack
        let span = route.span
        span.attributes[NavigationAttributes.outcome] = outcome.rawValue
        span.attributes[NavigationAttributes.instructions] = failure.executed.count
        span.attributes[NavigationAttributes.rolledBack] = max(route.rolledBack, failure.rolledBack.count)
        span.attributes[NavigationAttributes.failureKind] = failure.kind.rawValue
        span.attributes[NavigationAttributes.failureReason] = failure.message
        span.attributes[NavigationAttributes.failureStage] = failure.stage.rawValue
        if let url = failure.url { span.attributes[NavigationAttributes.url] = url }
        Self.describeEnd(of: route, settled: destination)
        // A refusal is the app's rule working; a failure is an error (OpenTelemetry's status).
        if outcome != .denied { span.setStatus(SpanStatus(code: .error, message: "\(failure.kind): \(failure.message)")) }
        span.end()
        // Undone, the path is where it was; failed midway and not undone, it is somewhere between.
        if outcome == .failed, !failure.executed.isEmpty { state.activePath = nil }
    }

    private static func describeEnd(of route: OpenRoute, settled: Destination) {
        if !route.redirects.isEmpty { route.span.attributes[NavigationAttributes.redirects] = route.redirects }
        if settled != route.requested { route.span.attributes[NavigationAttributes.settled] = settled.description }
    }

    /// The span's name: the destination's screen, so that names stay few (its context is an
    /// attribute, `app.screen.id`).
    static func name(of destination: Destination) -> String {
        screen(of: destination).map { "navigate \($0.id)" } ?? "navigate"
    }

    private static func screen(of destination: Destination) -> Entry? {
        if case .remove(let entry) = destination { return entry }
        return destination.namedEntries.last
    }

    private static func describe(_ destination: Destination, from activePath: [Entry]?, into attributes: inout SpanAttributes) {
        // A request refused before it had a destination (a URL that leads nowhere) has none.
        let requested = destination.description
        if !requested.isEmpty { attributes[NavigationAttributes.to] = requested }
        if let screen = screen(of: destination) {
            attributes[NavigationAttributes.screenName] = screen.id
            attributes[NavigationAttributes.screenID] = screen.description
        }
        if let activePath {
            attributes[NavigationAttributes.from] = activePath.map(\.description).joined(separator: " > ")
            if let last = activePath.last { attributes[NavigationAttributes.fromScreenName] = last.id }
        }
    }

    private static func milliseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1_000 + Double(attoseconds) / 1e15
    }
}
