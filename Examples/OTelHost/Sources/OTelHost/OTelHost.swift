// Navigation spans to OpenTelemetry: swift-otel bootstrapped as the process's tracer, Portolan's
// telemetry handed that tracer, and a few routes (one redirected, one denied) that each become a
// span, exported over OTLP/HTTP to the collector that OpenTelemetry's environment variables name
// (OTEL_EXPORTER_OTLP_ENDPOINT, by default http://localhost:4318; OTEL_EXPORTER_OTLP_PROTOCOL,
// http/protobuf or http/json).
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
        configuration.metrics.enabled = false
        configuration.logs.enabled = false
        let observability = try OTel.bootstrap(configuration: configuration)

        try await withThrowingTaskGroup { group in
            group.addTask { try await observability.run() }   // exports in the background

            let host = try PortolanHost()
            try await host.loadApp(.source(rules, chunkName: "rules.lua"))
            await NavigationTelemetry(tracer: InstrumentationSystem.tracer).observe(host)
            for screen in ["home", "account", "vault"] {
                switch await host.route(.ids("root", screen)) {
                case .success: print("route to \(screen): arrived")
                case .failure(let failure): print("route to \(screen): \(failure.kind)")
                }
            }
            try await Task.sleep(for: .seconds(6))   // past the batch processor's delay, so the spans go out
            group.cancelAll()
        }
    }
}
