import Portolan
import PortolanLua
import PortolanShipping
import Tracing

/// Navigation telemetry through swift-distributed-tracing (docs/telemetry.md): every route of a
/// host as a span, whatever became of it, and every rules change (a reload; a bundle's install,
/// swap, canary and revert) as spans too, with the attributes ``NavigationAttributes`` names.
/// Any tracer will do: swift-otel's for OpenTelemetry, an app's own, or `InMemoryTracer` in tests.
///
///     let telemetry = NavigationTelemetry(tracer: InstrumentationSystem.tracer)
///     await telemetry.observe(host)
///     let outcome = await telemetry.install(bundle: bytes, with: updater)
public final class NavigationTelemetry: Sendable {
    public let tracer: any Tracer
    /// An instruction that takes this long or longer, its handlers included, adds a
    /// `portolan.handler.slow` event to its route's span.
    public let slowInstruction: Duration

    public init(tracer: any Tracer, slowInstruction: Duration = .milliseconds(100)) {
        self.tracer = tracer
        self.slowInstruction = slowInstruction
    }

    /// A span for each route `host` runs from now on, and for each request it refuses. The route
    /// spans are roots: a navigation is an operation of its own, not part of whatever the app was
    /// doing when it asked.
    public func observe(_ host: PortolanHost) async {
        let routes = RouteSpans(tracer: tracer, slowInstruction: slowInstruction, activePath: await host.router?.activePath)
        await host.observeEvents { routes.hear($0) }
    }

    /// `host.reload(rules)` as a span, `rules.reload`: `reloaded` with what left and entered, or
    /// `failed` with the error recorded (the rules in service stay, as the reload leaves them).
    public func reload(_ host: PortolanHost, _ rules: AppRules? = nil) async throws(HostError) -> ReloadResult {
        let span = tracer.startSpan("rules.reload", context: .topLevel, ofKind: .internal)
        defer { span.end() }
        do {
            let result = try await host.reload(rules)
            span.attributes[NavigationAttributes.rulesOutcome] = "reloaded"
            span.attributes[NavigationAttributes.rulesLeft] = result.left.count
            span.attributes[NavigationAttributes.rulesEntered] = result.entered.count
            return result
        } catch {
            span.attributes[NavigationAttributes.rulesOutcome] = "failed"
            span.recordError(error)
            span.setStatus(SpanStatus(code: .error, message: error.description))
            throw error
        }
    }

    /// `updater.install(bundle:)` as spans: `rules.install` for the gate and the swap, with
    /// `rules.swap` inside it for the swap's pause; when a canary then watches the routes,
    /// `rules.canary` until its verdict, with `rules.revert` inside it when it reverts. The canary's
    /// span outlives this call unless the updater's options await the canary.
    public func install(bundle bytes: [UInt8], with updater: RulesUpdater) async -> BundleInstallOutcome {
        let verdicts = updater.outcomes()   // taken first, so that no verdict comes before it is heard
        let span = tracer.startSpan("rules.install", context: .topLevel, ofKind: .internal)
        let outcome = await updater.install(bundle: bytes)
        let ended = DefaultTracerClock.now
        if let pause = updater.lastSwapPause, Self.swapped(outcome) { swapSpan(in: span, pause: pause, endingAt: ended) }
        describe(outcome, on: span)
        span.end(at: ended)
        guard case .accepted(let manifest, canary: .watching(let routes)) = outcome else {
            if case .reverted = outcome { revertSpan(in: span, outcome) }
            return outcome
        }
        let canary = tracer.startSpan("rules.canary", context: span.context, ofKind: .internal)
        canary.attributes[NavigationAttributes.bundleID] = manifest.id
        canary.attributes[NavigationAttributes.bundleVersion] = manifest.version
        canary.attributes[NavigationAttributes.canaryRoutes] = routes
        Task { await self.awaitVerdict(of: manifest, from: verdicts, on: canary) }
        return outcome
    }

    /// Whether the install got as far as the swap.
    private static func swapped(_ outcome: BundleInstallOutcome) -> Bool {
        switch outcome {
        case .accepted, .reverted, .revertFailed: true
        case .rejected(let stage, _): stage >= .canary
        }
    }

    /// The swap, inside the install: it ended when the install's last stage did, `pause` before.
    private func swapSpan(in install: any Span, pause: Duration, endingAt end: DefaultTracerClock.Timestamp) {
        let (seconds, attoseconds) = pause.components
        let nanoseconds = UInt64(max(0, seconds)) * 1_000_000_000 + UInt64(max(0, attoseconds) / 1_000_000_000)
        let start = DefaultTracerClock.Timestamp(nanosecondsSinceEpoch: end.nanosecondsSinceEpoch - min(nanoseconds, end.nanosecondsSinceEpoch))
        let swap = tracer.startSpan("rules.swap", context: install.context, ofKind: .internal, at: start)
        swap.attributes[NavigationAttributes.swapPauseMilliseconds] = Double(nanoseconds) / 1e6
        swap.end(at: end)
    }

    /// The canary's verdict on `manifest`, the next the updater announces for it.
    private func awaitVerdict(of manifest: BundleManifest, from verdicts: AsyncStream<BundleInstallOutcome>, on canary: any Span) async {
        for await outcome in verdicts {
            switch outcome {
            case .accepted(manifest, canary: let state):
                guard case .watching = state else { return end(canary, with: outcome) }
            case .reverted(manifest, _), .revertFailed(manifest, _, _):
                revertSpan(in: canary, outcome)
                return end(canary, with: outcome)
            default:
                continue
            }
        }
        canary.end()   // the updater went away first
    }

    private func end(_ canary: any Span, with outcome: BundleInstallOutcome) {
        switch outcome {
        case .accepted(_, canary: .passed(let routes)):
            canary.attributes[NavigationAttributes.canaryVerdict] = "passed"
            canary.attributes[NavigationAttributes.canaryRoutes] = routes
        case .accepted(_, canary: .undecided(let routes)):
            canary.attributes[NavigationAttributes.canaryVerdict] = "undecided"
            canary.attributes[NavigationAttributes.canaryRoutes] = routes
        case .reverted(_, let failures), .revertFailed(_, let failures, _):
            canary.attributes[NavigationAttributes.canaryVerdict] = "reverted"
            canary.attributes[NavigationAttributes.canaryFailingRoutes] = failures.map(\.description)
            canary.setStatus(SpanStatus(code: .error, message: outcome.text))
        default:
            break
        }
        canary.end()
    }

    /// The revert, inside `parent`: the updater tells of it once it is done, so its span marks the
    /// moment, not its length.
    private func revertSpan(in parent: any Span, _ outcome: BundleInstallOutcome) {
        let revert = tracer.startSpan("rules.revert", context: parent.context, ofKind: .internal)
        describe(outcome, on: revert)
        revert.end()
    }

    private func describe(_ outcome: BundleInstallOutcome, on span: any Span) {
        span.attributes[NavigationAttributes.rulesOutcome] = outcome.name
        switch outcome {
        case .accepted(let manifest, _), .reverted(let manifest, _), .revertFailed(let manifest, _, _):
            span.attributes[NavigationAttributes.bundleID] = manifest.id
            span.attributes[NavigationAttributes.bundleVersion] = manifest.version
        case .rejected(let stage, let reason):
            span.attributes[NavigationAttributes.gateStage] = stage.description
            span.attributes[NavigationAttributes.rejection] = reason.text
        }
        switch outcome {
        case .accepted: break
        case .rejected, .reverted, .revertFailed: span.setStatus(SpanStatus(code: .error, message: outcome.text))
        }
    }
}
