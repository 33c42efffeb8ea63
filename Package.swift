// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Portolan",
    // The engine's locks are Synchronization's Mutex and Atomic, first in macOS 15 and iOS 18. Linux
    // needs no entry. Where each platform finds Lua 5.4: docs/embedding.md, "Platforms".
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "Portolan", targets: ["Portolan"]),
        .library(name: "Lua", targets: ["Lua"]),
        .library(name: "PortolanLua", targets: ["PortolanLua"]),
        .library(name: "PortolanShipping", targets: ["PortolanShipping"]),
        .library(name: "PortolanTools", targets: ["PortolanTools"]),
        .library(name: "PortolanTracing", targets: ["PortolanTracing"]),
        .executable(name: "portolan", targets: ["portolan"]),
        .executable(name: "portolan-inspector", targets: ["portolan-inspector"]),
        // For the tests and the long runs in `Benchmarks` only: not part of the API.
        .library(name: "TestSupport", targets: ["TestSupport"]),
        .library(name: "FuzzSupport", targets: ["FuzzSupport"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
        // The REPL's live inspector serves its page and WebSocket on FlyingFox's sockets (FlyingSocks).
        .package(url: "https://github.com/swhitty/FlyingFox.git", from: "0.27.1"),
        // Cryptography is never written here: the WebSocket handshake's SHA-1 (and later the
        // rules bundles' signatures) come from swift-crypto.
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        // Navigation telemetry (PortolanTracing) speaks the Swift ecosystem's tracing API, so that
        // any backend takes it: swift-otel for OpenTelemetry, or an app's own tracer.
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.7.3"),
    ],
    targets: [
        // Lua 5.4 through pkg-config's `lua5.4`: Debian's liblua5.4-dev (scripts/bootstrap.sh installs
        // it), or Homebrew's lua@5.4 on macOS (its `lua` formula is Lua 5.5 now).
        .systemLibrary(
            name: "CLua",
            pkgConfig: "lua5.4",
            providers: [.apt(["liblua5.4-dev"]), .brew(["lua@5.4"])]
        ),
        // libedit (BSD editline: line editing, history, completion) for the REPL on a terminal.
        .systemLibrary(
            name: "CEditLine",
            pkgConfig: "libedit",
            providers: [.apt(["libedit-dev"])]
        ),
        // The platform's seams in C: the wake-up a signal handler may post, and which paths a build
        // takes where Linux and Darwin differ (`-Xcc -DPORTOLAN_PORTABLE -Xswiftc -DPORTOLAN_PORTABLE`
        // forces the portable ones: docs/embedding.md, "Platforms").
        .target(name: "CPlatform"),
        // The C shim: macros Swift cannot import, and the trampoline that raises
        // Lua errors only after Swift frames have returned (DESIGN.md, "the longjmp rule").
        .target(name: "CLuaShim", dependencies: ["CLua", "CPlatform"]),
        // A generic wrapper of one lua_State. Knows nothing of routing.
        .target(name: "Lua", dependencies: ["CLua", "CLuaShim", "CPlatform"]),
        // The routing engine. Swift, and CPlatform's wake-up; knows nothing of Lua.
        .target(name: "Portolan", dependencies: ["CPlatform"]),
        // The embeddable host, where the engine and Lua meet: `PortolanHost` and the `portolan`
        // Lua module, whose Lua half is compiled in.
        .target(
            name: "PortolanLua",
            // swift-crypto hashes the rules' files for a snapshot's identity (SHA-256).
            dependencies: ["Portolan", "Lua", .product(name: "Crypto", package: "swift-crypto")],
            resources: [
                .embedInCode("Module/portolan.lua"), .embedInCode("Module/ValuePrinter.lua"),
                .embedInCode("Module/NodeDescription.lua"), .embedInCode("Module/URLRules.lua"),
                .embedInCode("Module/Flows.lua"), .embedInCode("Module/AppState.lua"),
                .embedInCode("Module/Decisions.lua"), .embedInCode("Module/Snapshots.lua"), .embedInCode("Module/Stack.lua"),
                // The same parts compiled to bytecode by scripts/compile-module.lua, loaded at start-up
                // instead of parsed when they match the source and the Lua release (PrecompiledModule).
                .embedInCode("Module/Bytecode/manifest.txt"), .embedInCode("Module/Bytecode/portolan.luac"),
                .embedInCode("Module/Bytecode/ValuePrinter.luac"), .embedInCode("Module/Bytecode/NodeDescription.luac"),
                .embedInCode("Module/Bytecode/URLRules.luac"), .embedInCode("Module/Bytecode/Flows.luac"),
                .embedInCode("Module/Bytecode/AppState.luac"), .embedInCode("Module/Bytecode/Decisions.luac"),
                .embedInCode("Module/Bytecode/Snapshots.luac"), .embedInCode("Module/Bytecode/Stack.luac"),
            ]
        ),
        // What an app links to take rules updates (docs/bundles.md): the bundle's format and
        // signature, the gate with the linter and the scenario runner it runs, the app-load limits,
        // the swap's canary and the store, behind one updater object (`RulesUpdater`).
        .target(
            name: "PortolanShipping",
            // swift-crypto signs and verifies bundles (Ed25519) and hashes their files (SHA-256).
            dependencies: ["PortolanLua", .product(name: "Crypto", package: "swift-crypto")],
            // Lua source compiled in: the expect library and the linter's prelude, each also
            // compiled to bytecode by scripts/compile-module.lua, loaded instead of parsed when
            // they match the source and the Lua release (ShippingBytecode).
            resources: [
                .embedInCode("Scenarios/ExpectLibrary.lua"), .embedInCode("Check/CheckPrelude.lua"),
                .embedInCode("Bytecode/manifest.txt"), .embedInCode("Bytecode/ExpectLibrary.luac"),
                .embedInCode("Bytecode/CheckPrelude.luac"),
            ]
        ),
        // Navigation telemetry: router events and rules changes as spans through
        // swift-distributed-tracing (docs/telemetry.md). An app links it beside the host.
        .target(
            name: "PortolanTracing",
            dependencies: ["PortolanLua", "PortolanShipping", .product(name: "Tracing", package: "swift-distributed-tracing")]
        ),
        // What people use the host through: the REPL, the scenario runner's reports and coverage,
        // the linter's command, the explorer and bundle building. An app that embeds the host does
        // not link them.
        .target(
            name: "PortolanTools", dependencies: ["PortolanShipping", .product(name: "Crypto", package: "swift-crypto")],
            // Lua source compiled in: the REPL's helpers, and the built-in demo app, which is
            // Examples/movies/app.lua itself (a link).
            resources: [
                .embedInCode("REPL/ReplKeys.lua"), .embedInCode("REPL/DemoApp.lua"),
                // The LuaLS definitions `portolan types` prints: described, never run.
                .embedInCode("Editor/EditorDefinitions.lua"),
                // The chunks that run compiled to bytecode by scripts/compile-module.lua, loaded
                // instead of parsed when they match the source and the Lua release (ToolBytecode).
                .embedInCode("Bytecode/manifest.txt"), .embedInCode("Bytecode/DemoApp.luac"),
                .embedInCode("Bytecode/ReplKeys.luac"),
            ]
        ),
        // The REPL's live inspector (`portolan repl --inspect`): a page on 127.0.0.1 that shows the
        // live tree, the event log and the last route, updated over a WebSocket. The server runs in
        // its own process, `portolan-inspector`, which the REPL starts and feeds the page's states:
        // its server brings Foundation's networking (and libcurl), which would double the REPL's
        // start-up were they in the `portolan` binary (Benchmarks/README.md, "Start-up").
        .target(
            name: "PortolanInspector",
            dependencies: [
                "Portolan", .product(name: "FlyingSocks", package: "FlyingFox"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            resources: [.embedInCode("InspectorPage.html")]
        ),
        .executableTarget(name: "portolan-inspector", dependencies: ["PortolanInspector"]),
        .executableTarget(
            name: "portolan",
            dependencies: [
                "PortolanTools", "PortolanShipping",
                "CEditLine",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // How a Swift app embeds the host: `swift run EmbeddedHost`. Its delivery of rules bundles
        // over HTTP (`EmbeddedHost deliver …`) installs them through the gate: it links what
        // shipping needs (PortolanShipping), and none of the tools.
        // `EmbeddedHost trace` routes with navigation telemetry, its spans kept by the tracing API's
        // in-memory tracer and printed.
        .executableTarget(
            name: "EmbeddedHost",
            dependencies: [
                "PortolanLua", "PortolanShipping", "PortolanTracing",
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ],
            path: "Examples/EmbeddedHost"),
        // A process for the concurrency contract's trap (rule 5), which would end a test's own process.
        .executableTarget(name: "contract-probe", dependencies: ["PortolanLua"], path: "Tests/ContractProbe"),
        .testTarget(
            name: "PortolanTests",
            dependencies: [
                "Portolan", "TestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        // What every test target shares: temporary directories, the repository's root, the
        // browser, hosts with an app loaded, thread CPU time, instruction texts, the seeded random
        // generator.
        .target(name: "TestSupport", dependencies: ["Portolan", "PortolanLua", "PortolanShipping"], path: "Tests/TestSupport"),
        // The fuzzers of Lua value conversion and of app loading, and the soak: one home for their
        // generators and properties, which the tests run briefly and `Benchmarks` at length.
        .target(
            name: "FuzzSupport", dependencies: ["PortolanLua", "PortolanShipping", "TestSupport"], path: "Tests/FuzzSupport",
            resources: [.embedInCode("LuaMadeValues.lua"), .embedInCode("SoakApp.lua")]
        ),
        // The pattern differential test's generator of cases is Lua, compiled in.
        .testTarget(
            name: "LuaTests", dependencies: ["Lua", "FuzzSupport", "TestSupport"],
            resources: [.embedInCode("PatternCases.lua")]),
        .testTarget(
            name: "PortolanLuaTests",
            dependencies: [
                "PortolanLua", "TestSupport", "FuzzSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        // The shipping target alone, as an app links it: none of these tests imports the tools.
        .testTarget(
            name: "PortolanShippingTests",
            dependencies: [
                "PortolanShipping", "TestSupport", "FuzzSupport",
                // To show, with swift-crypto itself, what a degenerate key would let through.
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .testTarget(name: "PortolanToolsTests", dependencies: ["PortolanTools", "PortolanShipping", "TestSupport"]),
        // Spans checked with the tracing API's own in-memory tracer.
        .testTarget(
            name: "PortolanTracingTests",
            dependencies: [
                "PortolanTracing", "TestSupport",
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ]),
        // The server's own process too: its sockets are tested as the REPL runs it (InspectorUnderTest).
        .testTarget(
            name: "PortolanInspectorTests",
            dependencies: ["PortolanInspector", "PortolanTools", "TestSupport", "portolan-inspector"]),
        // The Lua and engine modules too, to compare `--version` with what the library reports; the
        // contract probe, for the trap no test can hold in its own process; the example app, whose
        // delivery of rules bundles over HTTP they serve from FlyingFox on 127.0.0.1.
        .testTarget(
            name: "CLITests",
            dependencies: [
                "portolan", "contract-probe", "EmbeddedHost", "Lua", "Portolan", "PortolanShipping", "TestSupport",
                .product(name: "FlyingFox", package: "FlyingFox"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
