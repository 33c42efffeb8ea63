// swift-tools-version: 6.1
import PackageDescription

// Benchmarks live in their own package so the main package's build and tests never pay for them.
let package = Package(
    name: "PortolanBenchmarks",
    dependencies: [
        .package(name: "Portolan", path: ".."),
    ],
    targets: [
        .executableTarget(
            name: "PlannerBenchmark",
            dependencies: [.product(name: "Portolan", package: "Portolan")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
