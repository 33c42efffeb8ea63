// Navigation spans to OpenTelemetry: swift-otel bootstrapped as the process's tracer, Portolan's
// telemetry handed that tracer, and a few routes (one redirected, one denied) that each become a
// span. The console exporter prints them; set OTEL_TRACES_EXPORTER=otlp (and
// OTEL_EXPORTER_OTLP_ENDPOINT) to send them to a collector instead.
import OTel
import PortolanLua
import PortolanTracing
import Tracing

let rules = """
    portolan.app { id = "root", children = {
      { id = "home" },
      { id = "account", guard = function() return portolan.redirect { "root", "login" } end },
      { id = "login" },
      { id = "vault", guard = function() return portolan.deny("staff only") end },
    } }
    """

@main
enum OTelHost {
    static func main() async throws {
        var configuration = OTel.Configuration.default
        configuration.serviceName = "portolan-example"
        configuration.traces.exporter = .console
        configuration.metrics.enabled = false
        configuration.logs.enabled = false
        let observability = try OTel.bootstrap(configuration: configuration)

        try await withThrowingTaskGroup { group in
            group.addTask { try await observability.run() }   // exports in the background

            let host = try PortolanHost()
            try await host.loadApp(.source(rules, chunkName: "rules.lua"))
            await NavigationTelemetry(tracer: InstrumentationSystem.tracer).observe(host)
            for screen in ["home", "account", "vault"] {
                print("route to \(screen): \(await host.route(.ids("root", screen)).isSuccess ? "arrived" : "refused")")
            }
            try await Task.sleep(for: .seconds(6))   // past the batch processor's delay, so the spans go out
            group.cancelAll()
        }
    }
}
