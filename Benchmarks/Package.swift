// swift-tools-version: 6.1
import PackageDescription

// Benchmarks live in their own package so the main package's build and tests never pay for them.
let package = Package(
    name: "PortolanBenchmarks",
    platforms: [.macOS(.v15), .iOS(.v18)],   // the main package's (Synchronization)
    dependencies: [
        .package(name: "Portolan", path: ".."),
        // The URL matcher is measured against Vapor's trie router (issue 4).
        .package(url: "https://github.com/vapor/routing-kit.git", from: "4.9.3"),
    ],
    targets: [
        // The timer, the chain of screens that the planner and engine benchmarks share, and the
        // 200-node app of kept tabs that the snapshot and bundle benchmarks share.
        .target(name: "BenchmarkSupport", dependencies: [.product(name: "Portolan", package: "Portolan")]),
        .executableTarget(
            name: "PlannerBenchmark",
            dependencies: ["BenchmarkSupport", .product(name: "Portolan", package: "Portolan")]
        ),
        // Lua 5.4 itself, for the floor the host and engine benchmarks compare with: a bare lua_pcall.
        .systemLibrary(name: "CLuaFloor", pkgConfig: "lua5.4", providers: [.apt(["liblua5.4-dev"])]),
        // The engine alone (plan + apply, no handlers) per executed instruction, against the floor.
        .executableTarget(
            name: "EngineBenchmark",
            dependencies: ["BenchmarkSupport", "CLuaFloor", .product(name: "Portolan", package: "Portolan")]
        ),
        .executableTarget(
            name: "HostBenchmark",
            dependencies: ["CLuaFloor", .product(name: "PortolanLua", package: "Portolan")]
        ),
        // What grows with the app's size and the history limit (issue 24).
        .executableTarget(
            name: "ScaleBenchmark",
            dependencies: [
                "BenchmarkSupport", .product(name: "Portolan", package: "Portolan"),
                .product(name: "PortolanLua", package: "Portolan"),
            ]
        ),
        .executableTarget(name: "SnapshotBenchmark", dependencies: ["BenchmarkSupport", .product(name: "PortolanLua", package: "Portolan")]),
        // The rules bundle gate: the swap's pause and the gate's time for 50 scenarios (issue 22).
        .executableTarget(name: "BundleBenchmark", dependencies: ["BenchmarkSupport", .product(name: "PortolanShipping", package: "Portolan")]),
        // `portolan explore`'s actions per second, next to one route (issue 23).
        .executableTarget(name: "ExploreBenchmark", dependencies: [.product(name: "PortolanTools", package: "Portolan")]),
        .executableTarget(
            name: "MatcherBenchmark",
            dependencies: [
                .product(name: "Portolan", package: "Portolan"),
                .product(name: "RoutingKit", package: "routing-kit"),
            ]
        ),
        // The sandbox's bounded pattern functions against liblua5.4's, in one state.
        .executableTarget(
            name: "PatternBenchmark",
            dependencies: ["BenchmarkSupport", .product(name: "Lua", package: "Portolan")]
        ),
        // The long fuzz run of the URL layer (the test suite runs a bounded one); libfuzzer/ holds
        // the coverage-guided variant, built by its own script.
        .executableTarget(
            name: "MatcherFuzz",
            dependencies: [
                .product(name: "Portolan", package: "Portolan"), .product(name: "TestSupport", package: "Portolan"),
            ],
            exclude: ["libfuzzer"]
        ),
        // The long fuzz runs of Lua value conversion and of app loading, and the soak; their code is
        // the main package's FuzzSupport, which the tests run briefly (issue 10).
        .executableTarget(name: "ConversionFuzz", dependencies: [.product(name: "FuzzSupport", package: "Portolan")]),
        .executableTarget(name: "AppSpecFuzz", dependencies: [.product(name: "FuzzSupport", package: "Portolan")]),
        .executableTarget(name: "RestoreFuzz", dependencies: [.product(name: "FuzzSupport", package: "Portolan")]),
        .executableTarget(name: "BundleFuzz", dependencies: [.product(name: "FuzzSupport", package: "Portolan")]),
        .executableTarget(name: "Soak", dependencies: [.product(name: "FuzzSupport", package: "Portolan")]),
    ],
    swiftLanguageModes: [.v6]
)
