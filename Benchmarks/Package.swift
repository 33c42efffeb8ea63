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
        // Lua 5.4 itself, for the floor the host benchmark compares with: a bare lua_pcall.
        .systemLibrary(name: "CLuaFloor", pkgConfig: "lua5.4", providers: [.apt(["liblua5.4-dev"])]),
        .executableTarget(
            name: "HostBenchmark",
            dependencies: ["CLuaFloor", .product(name: "PortolanLua", package: "Portolan")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
