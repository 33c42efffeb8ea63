import Foundation
import Testing
import TestSupport

/// The example app routing with navigation telemetry (`EmbeddedHost trace`): each route, the one
/// its guard redirects, the one that changes nothing and the refused URL included, and its reload,
/// a span as docs/telemetry.md describes them.
@Suite struct EmbeddedHostTraceTests {
    static let example = PortolanBinary.sibling("EmbeddedHost")

    @Test(.enabled(if: example != nil, "the EmbeddedHost example was not built beside portolan"))
    func theExampleAppsRoutesAndReloadAreSpans() async throws {
        let run = try await PortolanBinary.run(program: try #require(Self.example), ["trace"], in: Repository.root)
        #expect(run.status == 0, "\(run.stderr)")
        let spans = run.stdout.split(separator: "\n").filter { !$0.hasPrefix("  [") }.map(String.init)
        try #require(spans.count == 6, "\(run.stdout)")
        #expect(spans[0].hasPrefix("navigate book: "))
        #expect(spans[0].contains("portolan.route.outcome=redirected, portolan.route.redirects=[root > account]"))
        #expect(spans[0].contains("portolan.route.from=root > home"))
        #expect(spans[1].contains("portolan.route.outcome=done") && spans[1].contains("portolan.route.instructions=2"))
        #expect(spans[2].contains("portolan.route.outcome=done") && spans[2].contains("portolan.route.instructions=0"))
        #expect(spans[3].hasPrefix("navigate [error]: "))
        #expect(spans[3].contains("portolan.route.failure.stage=request") && spans[3].contains("portolan.route.url=app://nowhere"))
        #expect(!spans[3].contains("portolan.route.to="))
        #expect(spans[4].hasPrefix("navigate book: "), "the reload's refresh of the route in service")
        #expect(spans[5] == "rules.reload: portolan.rules.entered=0, portolan.rules.left=0, portolan.rules.outcome=reloaded")
    }
}
