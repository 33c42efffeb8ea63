import InMemoryTracing
import PortolanLua
import PortolanTracing
import Tracing

/// `swift run EmbeddedHost trace`: the tour's routes with navigation telemetry (docs/telemetry.md),
/// each route and the reload a span. An app hands `NavigationTelemetry` the tracer it bootstrapped
/// (swift-otel's, for OpenTelemetry: docs/embedding.md, "Telemetry"); this one keeps the spans in
/// memory and prints them as an exporter would receive them.
enum TracedTour {
    static func run(_ host: PortolanHost, signedIn: SignedInFlag) async throws {
        let tracer = InMemoryTracer()
        let telemetry = NavigationTelemetry(tracer: tracer)
        await telemetry.observe(host)

        let book = Destination.path(["root", "home", Entry("book", context: ["id": 42])])
        _ = await host.route(book)                  // signed out: the guard redirects to the account
        signedIn.value = true
        _ = await host.route(book)                  // signed in: the book opens
        _ = await host.route(book)                  // already there: a span all the same
        _ = await host.route(url: "app://nowhere")  // a URL that leads nowhere: refused
        _ = try await telemetry.reload(host, .source(rules, chunkName: "rules.lua"))

        for span in tracer.finishedSpans {
            print(line(for: span))
        }
    }

    /// `name: attribute=value, …`, the attributes in the order of their names.
    static func line(for span: FinishedInMemorySpan) -> String {
        var attributes: [String] = []
        span.attributes.forEach { name, attribute in attributes.append("\(name)=\(text(of: attribute))") }
        let status = span.status.map { " [\($0.code)]" } ?? ""
        return "\(span.operationName)\(status): " + attributes.sorted().joined(separator: ", ")
    }

    private static func text(of attribute: SpanAttribute) -> String {
        switch attribute {
        case .string(let value): value
        case .int64(let value): String(value)
        case .stringArray(let values): "[" + values.joined(separator: "; ") + "]"
        default: "\(attribute)"
        }
    }
}
