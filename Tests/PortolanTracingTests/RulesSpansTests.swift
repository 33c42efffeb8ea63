import InMemoryTracing
import Portolan
import PortolanLua
import PortolanShipping
import PortolanTracing
import Testing
import TestSupport
import Tracing

/// A rules change as spans (docs/telemetry.md): a reload, and a bundle's install with its swap,
/// its canary and, when the canary fails it, its revert.
@Suite struct RulesSpansTests {
    static let app = """
        portolan.app { id = "root", children = { { id = "home" }, { id = "about" } } }
        """

    private func attribute(_ span: FinishedInMemorySpan, _ name: String) -> SpanAttribute? {
        span.attributes[name]?.toSpanAttribute()
    }

    /// The finished spans once one named `name` is among them; a canary's ends on a task of its
    /// own after the route that decided it. The bound is a net for a hang, not a check of speed.
    private func spans(waitingFor name: String, in tracer: InMemoryTracer) async throws -> [FinishedInMemorySpan] {
        for _ in 0..<12_000 where !tracer.finishedSpans.contains(where: { $0.operationName == name }) {
            try await Task.sleep(for: .milliseconds(10))
        }
        return tracer.finishedSpans
    }

    @Test func aReloadIsASpanAndOneThatFailsRecordsItsError() async throws {
        let host = try await PortolanHost.quiet(loading: Self.app)
        let tracer = InMemoryTracer()
        let telemetry = NavigationTelemetry(tracer: tracer)
        _ = try await telemetry.reload(host, .source(Self.app, chunkName: "app.lua"))
        await #expect(throws: HostError.self) {
            try await telemetry.reload(host, .source("portolan.app {", chunkName: "app.lua"))
        }
        let spans = tracer.popFinishedSpans()
        try #require(spans.count == 2, "\(spans.map(\.operationName))")
        #expect(spans.map(\.operationName) == ["rules.reload", "rules.reload"])
        #expect(attribute(spans[0], NavigationAttributes.rulesOutcome) == .string("reloaded"))
        #expect(spans[0].status == nil)
        #expect(attribute(spans[1], NavigationAttributes.rulesOutcome) == .string("failed"))
        #expect(spans[1].status?.code == .error)
        #expect(spans[1].errors.count == 1)
        #expect(spans[1].status?.message?.contains("app.lua:1") == true)
    }

    @Test func anInstallThatPassesItsCanaryIsAnInstallASwapAndACanary() async throws {
        let store = try TemporaryDirectory("store")
        defer { store.remove() }
        let host = try await PortolanHost.quiet(loading: Self.app)
        let fixture = BundleFixture()
        let updater = RulesUpdater(host: host, publicKey: fixture.publicKey, options: .init(store: BundleStore(directory: store.root)))
        let tracer = InMemoryTracer()
        let outcome = await NavigationTelemetry(tracer: tracer).install(bundle: try fixture.bytes(), with: updater)
        #expect(outcome.name == "accepted", "\(outcome.text)")
        for routed in 1...20 { _ = await host.route(.path(["root", routed.isMultiple(of: 2) ? "about" : "home"])) }
        let spans = try await spans(waitingFor: "rules.canary", in: tracer)
        let install = try #require(spans.first { $0.operationName == "rules.install" })
        let swap = try #require(spans.first { $0.operationName == "rules.swap" })
        let canary = try #require(spans.first { $0.operationName == "rules.canary" })
        #expect(attribute(install, NavigationAttributes.rulesOutcome) == .string("accepted"))
        #expect(attribute(install, NavigationAttributes.bundleID) == .string("com.example.rules"))
        #expect(attribute(install, NavigationAttributes.bundleVersion) == .int64(2))
        #expect(swap.parentSpanID == install.spanID)
        #expect(swap.startInstant.nanosecondsSinceEpoch >= install.startInstant.nanosecondsSinceEpoch)
        #expect(attribute(swap, NavigationAttributes.swapPauseMilliseconds) != nil)
        #expect(canary.parentSpanID == install.spanID)
        #expect(attribute(canary, NavigationAttributes.canaryVerdict) == .string("passed"))
        #expect(attribute(canary, NavigationAttributes.canaryRoutes) == .int64(20))
        #expect(!spans.contains { $0.operationName == "rules.revert" })
    }

    @Test func aCanaryThatRevertsEndsInARevert() async throws {
        let store = try TemporaryDirectory("store")
        defer { store.remove() }
        let host = try await PortolanHost.quiet(loading: Self.app)
        var fixture = BundleFixture().withApp("""
            portolan.app { id = "root", children = {
              { id = "home", enter = function() error("home is broken") end }, { id = "about" } } }
            """)
        fixture.files["scenarios/about.lua"] = nil
        fixture.manifest.scenarios = []
        let updater = RulesUpdater(host: host, publicKey: fixture.publicKey, options: .init(store: BundleStore(directory: store.root)))
        let tracer = InMemoryTracer()
        _ = await NavigationTelemetry(tracer: tracer).install(bundle: try fixture.bytes(), with: updater)
        var routed = 0
        while await host.isSwapWatched && routed < 40 {
            routed += 1
            _ = await host.route(.path(["root", routed.isMultiple(of: 2) ? "about" : "home"]))
        }
        let spans = try await spans(waitingFor: "rules.canary", in: tracer)
        let canary = try #require(spans.first { $0.operationName == "rules.canary" })
        let revert = try #require(spans.first { $0.operationName == "rules.revert" })
        #expect(attribute(canary, NavigationAttributes.canaryVerdict) == .string("reverted"))
        #expect(canary.status?.code == .error)
        guard case .stringArray(let failing)? = attribute(canary, NavigationAttributes.canaryFailingRoutes) else {
            Issue.record("no failing routes on the canary's span")
            return
        }
        #expect(failing.count == 3 && failing.allSatisfy { $0.contains("home is broken") })
        #expect(revert.parentSpanID == canary.spanID)
        #expect(attribute(revert, NavigationAttributes.rulesOutcome) == .string("reverted"))
    }

    @Test func aRejectedBundleIsAnInstallSpanThatNamesItsStage() async throws {
        let store = try TemporaryDirectory("store")
        defer { store.remove() }
        let host = try await PortolanHost.quiet(loading: Self.app)
        let fixture = BundleFixture()
        let stranger = BundleFixture().publicKey   // a key of its own: not the one that signed it
        let updater = RulesUpdater(host: host, publicKey: stranger, options: .init(store: BundleStore(directory: store.root)))
        let tracer = InMemoryTracer()
        let outcome = await NavigationTelemetry(tracer: tracer).install(bundle: try fixture.bytes(), with: updater)
        #expect(outcome.name == "rejected")
        let spans = tracer.popFinishedSpans()
        try #require(spans.count == 1, "\(spans.map(\.operationName))")
        #expect(spans[0].operationName == "rules.install")
        #expect(attribute(spans[0], NavigationAttributes.rulesOutcome) == .string("rejected"))
        #expect(attribute(spans[0], NavigationAttributes.gateStage) == .string("integrity"))
        #expect(spans[0].status?.code == .error)
    }
}
