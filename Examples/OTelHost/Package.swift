// swift-tools-version: 6.2
// An app that sends Portolan's navigation spans to OpenTelemetry through swift-otel
// (docs/embedding.md, "Telemetry"). A package of its own, so that swift-otel and its dependencies
// (SwiftNIO, swift-protobuf, AsyncHTTPClient, …) stay out of Portolan's own build:
//
//   swift run --package-path Examples/OTelHost      spans to the OTLP/HTTP collector at localhost:4318
//   OTEL_EXPORTER_OTLP_ENDPOINT=http://collector:4318 swift run --package-path Examples/OTelHost
import PackageDescription

let package = Package(
    name: "OTelHost",
    platforms: [.macOS(.v15), .iOS(.v18)],
    dependencies: [
        // Named, since a path dependency is otherwise known by its folder's name, which differs by checkout.
        .package(name: "Portolan", path: "../.."),
        // OTLP over HTTP only: the gRPC trait would bring grpc-swift as well.
        .package(url: "https://github.com/swift-otel/swift-otel.git", from: "1.6.0", traits: ["OTLPHTTP"]),
    ],
    targets: [
        .executableTarget(
            name: "OTelHost",
            dependencies: [
                .product(name: "PortolanLua", package: "Portolan"),
                .product(name: "PortolanTracing", package: "Portolan"),
                .product(name: "OTel", package: "swift-otel"),
            ]),
    ]
)
