import Foundation
import Portolan
import PortolanLua
import PortolanTools
import TestSupport
import Testing
import PortolanShipping

/// `:reload` and `--watch` put an edit through the bundle gate's stages 3 to 5 when a
/// `bundle.json` beside the app names it as its entry: an edit the gate refuses is said, with its
/// stage and reason, and the rules in service and the live tree stay byte-identical.
@Suite struct ReloadGateTests {
    static let manifest = #"{ "id": "com.example.rules", "version": 1, "entry": "app.lua", "scenarios": ["scenarios/about.lua"] }"#
    static let app = #"portolan.app { id = "root", children = { { id = "home" }, { id = "about" } } }"#

    /// A session on a bundle's source directory (the fixture's app and scenario), at `root > home`.
    struct GatedSession {
        let directory: TemporaryDirectory
        let session: ReplSession
        let output = Locked<[String]>([])

        init(files: [String: String] = [:]) async throws {
            var all = ["bundle.json": ReloadGateTests.manifest, "app.lua": ReloadGateTests.app, "scenarios/about.lua": BundleFixture.scenario]
            all.merge(files) { $1 }
            directory = try TemporaryDirectory("gate", files: all)
            let output = self.output
            session = try await ReplSession.start(appFile: directory.path("app.lua")) { line in output.withLock { $0.append(line) } }
            await session.handle("/root/home")
        }

        /// What `:reload` printed, and whether the live snapshot's bytes stayed as they were.
        func reload() async throws -> (output: [String], treeKept: Bool) {
            let before = try await session.host.snapshotBytes()
            output.withLock { $0 = [] }
            await session.handle(":reload")
            let after = try await session.host.snapshotBytes()
            return (output.value, before == after)
        }
    }

    @Test func aFailingScenarioIsRefusedAndTheRulesInServiceStay() async throws {
        let gated = try await GatedSession()
        defer { gated.directory.remove() }
        // The edit drops the screen the scenario opens: it loads and lints, and fails its scenario.
        try gated.directory.write("app.lua", #"portolan.app { id = "root", children = { { id = "home" }, { id = "settings" } } }"#)
        let (output, treeKept) = try await gated.reload()
        #expect(treeKept)
        #expect(output.count == 2, "\(output)")
        #expect(output.first?.hasPrefix("error: rejected at stage 5 (scenarios): scenario failed: scenarios/about.lua: about opens: ") == true, "\(output)")
        #expect(output.last == "the rules in service are unchanged", "\(output)")
        // The old rules still serve: `about` is there, `settings` is not.
        gated.output.withLock { $0 = [] }
        await gated.session.handle("/root/about")
        #expect(gated.output.value.contains { $0.contains("root > about") }, "\(gated.output.value)")
    }

    @Test func eachStageRefusesItsOwnEdit() async throws {
        let edits: [(app: String, stage: String)] = [
            ("portolan.app { id = ", "rejected at stage 3 (load): the rules do not load: app.lua:1: "),
            // The instruction budget ends the loop ("do not load"), or on a busy machine the time limit
            // ("did not load in time"): either is a refusal at stage 3.
            ("while true do end", "rejected at stage 3 (load): the rules d"),
            (#"portolan.app { id = "root", version = 2, migrations = { [2] = { removed = { "home" } } }, children = { { id = "home" }, { id = "about" } } }"#,
             "rejected at stage 4 (lint): check found "),
        ]
        for edit in edits {
            let gated = try await GatedSession()
            defer { gated.directory.remove() }
            try gated.directory.write("app.lua", edit.app)
            let (output, treeKept) = try await gated.reload()
            #expect(treeKept, "\(edit.app)")
            #expect(output.first?.hasPrefix("error: " + edit.stage) == true, "\(output)")
            #expect(output.last == "the rules in service are unchanged", "\(output)")
        }
    }

    @Test func aGoodEditPassesTheGateAndIsReloaded() async throws {
        let gated = try await GatedSession()
        defer { gated.directory.remove() }
        try gated.directory.write("app.lua", #"portolan.app { id = "root", children = { { id = "home" }, { id = "about" }, { id = "help" } } }"#)
        let (output, _) = try await gated.reload()
        #expect(output.first == "passed the gate (load, check, 1 scenario file); reloaded", "\(output)")
        gated.output.withLock { $0 = [] }
        await gated.session.handle("/root/help")
        #expect(gated.output.value.contains { $0.contains("root > help") }, "\(gated.output.value)")
    }

    @Test func anUnreadableManifestRefusesTheReload() async throws {
        let gated = try await GatedSession()
        defer { gated.directory.remove() }
        try gated.directory.write("bundle.json", #"{ "id": "com.example.rules", "#)
        let (output, treeKept) = try await gated.reload()
        #expect(treeKept)
        #expect(output.first == "error: bundle.json: invalid manifest: bundle.json is not JSON", "\(output)")
    }

    /// A `bundle.json` whose entry is another file gates that file's reloads, not this app's.
    @Test func aManifestOfAnotherEntryDoesNotGate() async throws {
        let gated = try await GatedSession(files: [
            "bundle.json": Self.manifest.replacingOccurrences(of: #""entry": "app.lua""#, with: #""entry": "other.lua""#),
            "other.lua": Self.app,
        ])
        defer { gated.directory.remove() }
        #expect(await gated.session.reloadGateManifest == nil)
        try gated.directory.write("app.lua", #"portolan.app { id = "root", children = { { id = "home" } } }"#)
        let (output, _) = try await gated.reload()
        #expect(output.first == "reloaded", "\(output)")
    }

    /// `--watch` watches `bundle.json` and the scenarios too: after a refusal, fixing the scenario
    /// is an edit, and the gate runs again.
    @Test func watchRunsTheGateAgainWhenAScenarioChanges() async throws {
        let gated = try await GatedSession()
        defer { gated.directory.remove() }
        let watched = await gated.session.watchedFiles
        #expect(watched.contains(gated.directory.path("bundle.json")), "\(watched)")
        #expect(watched.contains(gated.directory.path("scenarios/about.lua")), "\(watched)")
        #expect(await gated.session.reloadGateManifest == gated.directory.path("bundle.json"))

        try Self.write(#"portolan.app { id = "root", children = { { id = "home" }, { id = "settings" } } }"#, to: "app.lua", in: gated.directory)
        gated.output.withLock { $0 = [] }
        #expect(await gated.session.reloadIfChanged())
        #expect(gated.output.value.first?.hasPrefix("error: \(gated.directory.path("app.lua")) changed: rejected at stage 5") == true, "\(gated.output.value)")
        #expect(await !gated.session.reloadIfChanged(), "a refused edit is not checked again until something changes")

        let scenario = #"scenario("settings opens", function() assert(portolan.route { "root", "settings" }) end)"#
        try Self.write(scenario, to: "scenarios/about.lua", in: gated.directory)
        gated.output.withLock { $0 = [] }
        #expect(await gated.session.reloadIfChanged())
        #expect(gated.output.value.first == "\(gated.directory.path("scenarios/about.lua")) changed: passed the gate (load, check, 1 scenario file); reloaded", "\(gated.output.value)")
    }

    /// A file saved while the gate runs is not loaded unchecked: the reload is refused and the next
    /// check takes it. The save comes from a Swift function the scenario calls, so it lands inside
    /// the gate's run whatever the machine's speed.
    @Test func aFileSavedWhileTheGateRunsIsRefusedThenCheckedNextTime() async throws {
        let scenario = #"scenario("about opens", function() save_again() assert(portolan.route { "root", "about" }) end)"#
        let directory = try TemporaryDirectory("gate", files: ["bundle.json": Self.manifest, "app.lua": Self.app, "scenarios/about.lua": scenario])
        defer { directory.remove() }
        let saved = Locked(false)
        let host = try PortolanHost(configuration: AppLoadLimits.configuration)
        try await host.register(function: "save_again") { _ in
            let first = saved.withLock { wasSaved in defer { wasSaved = true }; return !wasSaved }
            if first {
                try? Self.write(#"portolan.app { id = "root", children = { { id = "home" }, { id = "about" }, { id = "later" } } }"#,
                                to: "app.lua", in: directory, secondsAhead: 10)
            }
            return []
        }
        try await AppLoadLimits.loadApp(host, file: directory.path("app.lua"))
        let output = Locked<[String]>([])
        let session = await ReplSession(host: host, appName: "app.lua", appFile: directory.path("app.lua")) { line in output.withLock { $0.append(line) } }
        try Self.write(#"portolan.app { id = "root", children = { { id = "home" }, { id = "about" }, { id = "sooner" } } }"#, to: "app.lua", in: directory)

        await session.handle(":reload")
        #expect(saved.value)
        #expect(output.value.first == "error: \(directory.path("app.lua")) changed while the gate checked the rules", "\(output.value)")
        #expect(output.value.last == "the rules in service are unchanged", "\(output.value)")
        #expect(await Self.declares("sooner", host) == false)
        #expect(await Self.declares("later", host) == false)

        output.withLock { $0 = [] }
        await session.handle(":reload")
        #expect(output.value.first == "passed the gate (load, check, 1 scenario file); reloaded", "\(output.value)")
        #expect(await Self.declares("later", host))
    }

    /// Whether the rules in service route to `screen` below the root.
    static func declares(_ screen: String, _ host: PortolanHost) async -> Bool {
        if case .success = await host.route(.path(["root", Entry(NodeID(screen))])) { return true }
        return false
    }

    /// Writes a file with a modification time later than any before it, whatever the file system's resolution.
    static func write(_ text: String, to name: String, in directory: TemporaryDirectory, secondsAhead: Double = 5) throws {
        try directory.write(name, text)
        try FileManager.default.setAttributes(
            [.modificationDate: Date().addingTimeInterval(secondsAhead)], ofItemAtPath: directory.path(name))
    }
}
