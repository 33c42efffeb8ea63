import InMemoryTracing
import Portolan
import PortolanLua
import PortolanTracing
import Testing
import TestSupport
import Tracing

/// One span per route, exactly as docs/telemetry.md says, read from the tracing API's own
/// in-memory tracer: an app routes, is denied, redirected and fails, routes nowhere new, asks for a
/// URL that leads nowhere, and runs a slow handler.
@Suite struct RouteSpansTests {
    static let app = """
        logged_in = false
        portolan.app { id = "root", children = {
          { id = "home" },
          { id = "account", guard = function(node, request)
              if not logged_in then return portolan.redirect({ "root", "login" }) end
            end },
          { id = "login" },
          { id = "vault", guard = function() return portolan.deny("staff only") end },
          { id = "broken", enter = function() error("the screen is broken") end },
          { id = "slow", enter = function() portolan.wait(0.15) end },
        } }
        """

    /// A host with the app, observed by a telemetry that calls an instruction slow from `slow` on.
    private func observed(slow: Duration = .milliseconds(50)) async throws -> (PortolanHost, InMemoryTracer) {
        let host = try await PortolanHost.quiet(loading: Self.app)
        let tracer = InMemoryTracer()
        await NavigationTelemetry(tracer: tracer, slowInstruction: slow).observe(host)
        return (host, tracer)
    }

    private func only(_ tracer: InMemoryTracer) throws -> FinishedInMemorySpan {
        let spans = tracer.popFinishedSpans()
        try #require(spans.count == 1, "\(spans.map(\.operationName))")
        return spans[0]
    }

    @Test func aRouteThatArrivesIsOneSpanNamedAfterItsScreen() async throws {
        let (host, tracer) = try await observed()
        _ = await host.route(.ids("root", "home"))
        let span = try only(tracer)
        #expect(span.operationName == "navigate home")
        #expect(span.attributes[NavigationAttributes.screenName]?.toSpanAttribute() == .string("home"))
        #expect(span.attributes[NavigationAttributes.screenID]?.toSpanAttribute() == .string("home"))
        #expect(span.attributes[NavigationAttributes.to]?.toSpanAttribute() == .string("root > home"))
        #expect(span.attributes[NavigationAttributes.from]?.toSpanAttribute() == .string("root"))
        #expect(span.attributes[NavigationAttributes.fromScreenName]?.toSpanAttribute() == .string("root"))
        #expect(span.attributes[NavigationAttributes.outcome]?.toSpanAttribute() == .string("done"))
        #expect(span.attributes[NavigationAttributes.instructions]?.toSpanAttribute() == .int64(1))
        #expect(span.status == nil)
        #expect(span.parentSpanID == nil)
    }

    @Test func aRedirectedRouteCarriesItsChainAndWhereItWent() async throws {
        let (host, tracer) = try await observed()
        _ = await host.route(.ids("root", "account"))
        let span = try only(tracer)
        #expect(span.operationName == "navigate account")
        #expect(span.attributes[NavigationAttributes.outcome]?.toSpanAttribute() == .string("redirected"))
        #expect(span.attributes[NavigationAttributes.redirects]?.toSpanAttribute() == .stringArray(["root > login"]))
        #expect(span.attributes[NavigationAttributes.settled]?.toSpanAttribute() == .string("root > login"))
        #expect(span.status == nil)
    }

    @Test func aDeniedRouteIsASpanWithoutAnError() async throws {
        let (host, tracer) = try await observed()
        _ = await host.route(.ids("root", "vault"))
        let span = try only(tracer)
        #expect(span.attributes[NavigationAttributes.outcome]?.toSpanAttribute() == .string("denied"))
        #expect(span.attributes[NavigationAttributes.failureKind]?.toSpanAttribute() == .string("denied"))
        #expect(span.attributes[NavigationAttributes.failureReason]?.toSpanAttribute() == .string("staff only"))
        #expect(span.attributes[NavigationAttributes.instructions]?.toSpanAttribute() == .int64(0))
        #expect(span.status == nil)
    }

    @Test func aFailedRouteSaysWhyAndWhatWasUndone() async throws {
        let (host, tracer) = try await observed()
        guard case .failure(let failure) = await host.route(.ids("root", "broken")) else {
            Issue.record("the broken screen's route succeeded")
            return
        }
        let span = try only(tracer)
        let outcome = failure.rolledBack.isEmpty ? "failed" : "rolled_back"
        #expect(span.attributes[NavigationAttributes.outcome]?.toSpanAttribute() == .string(outcome))
        #expect(span.attributes[NavigationAttributes.failureKind]?.toSpanAttribute() == .string("handler_failed"))
        #expect(span.attributes[NavigationAttributes.failureStage]?.toSpanAttribute() == .string("route"))
        #expect(span.attributes[NavigationAttributes.rolledBack]?.toSpanAttribute() == .int64(Int64(failure.rolledBack.count)))
        #expect(span.status?.code == .error)
        #expect(span.status?.message?.contains("the screen is broken") == true)
    }

    @Test func aRouteThatChangesNothingIsStillASpan() async throws {
        let (host, tracer) = try await observed()
        _ = await host.route(.ids("root", "home"))
        _ = tracer.popFinishedSpans()
        _ = await host.route(.ids("root", "home"))
        let span = try only(tracer)
        #expect(span.attributes[NavigationAttributes.outcome]?.toSpanAttribute() == .string("done"))
        #expect(span.attributes[NavigationAttributes.instructions]?.toSpanAttribute() == .int64(0))
        #expect(span.attributes[NavigationAttributes.from]?.toSpanAttribute() == .string("root > home"))
    }

    @Test func aURLThatLeadsNowhereIsASpanOfItsRefusal() async throws {
        let (host, tracer) = try await observed()
        _ = await host.route(url: "app://nowhere/at/all")
        let span = try only(tracer)
        #expect(span.operationName == "navigate")
        #expect(span.attributes[NavigationAttributes.outcome]?.toSpanAttribute() == .string("failed"))
        #expect(span.attributes[NavigationAttributes.failureStage]?.toSpanAttribute() == .string("request"))
        #expect(span.attributes[NavigationAttributes.url]?.toSpanAttribute() == .string("app://nowhere/at/all"))
        #expect(span.status?.code == .error)
    }

    @Test func aSlowHandlerIsAnEventOnItsRoute() async throws {
        let (host, tracer) = try await observed()
        _ = await host.route(.ids("root", "slow"))
        let span = try only(tracer)
        let slow = span.events.filter { $0.name == NavigationAttributes.slowHandlerEvent }
        try #require(slow.count == 1, "\(span.events.map(\.name))")
        #expect(slow[0].attributes[NavigationAttributes.instruction]?.toSpanAttribute() == .string("enter slow"))
        guard case .double(let milliseconds)? = slow[0].attributes[NavigationAttributes.durationMilliseconds]?.toSpanAttribute() else {
            Issue.record("no duration on the event")
            return
        }
        #expect(milliseconds >= 150)
    }

    @Test func aRouteQuickerThanTheLimitHasNoSlowEvent() async throws {
        // A limit no busy machine reaches: the check is that a quick step adds nothing.
        let (host, tracer) = try await observed(slow: .seconds(600))
        _ = await host.route(.ids("root", "home"))
        #expect(try only(tracer).events.isEmpty)
    }

    @Test func theSystemsTracerTakesTheSpansWhateverItIs() async throws {
        // Until an app bootstraps one, InstrumentationSystem's tracer is the API's no-op tracer.
        let host = try await PortolanHost.quiet(loading: Self.app)
        await NavigationTelemetry(tracer: InstrumentationSystem.tracer).observe(host)
        #expect(await host.route(.ids("root", "home")).isSuccess)
        #expect(await host.route(.ids("root", "vault")).isSuccess == false)
    }
}
