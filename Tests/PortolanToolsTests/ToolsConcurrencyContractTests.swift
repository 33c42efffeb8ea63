import Dispatch
import Foundation
import Portolan
import PortolanLua
@testable import PortolanTools
import TestSupport
import Testing
@testable import PortolanShipping

/// The tools' rules of docs/concurrency.md, one test each.
@Suite struct ToolsConcurrencyContractTests {
    /// Rule 9: the thread of an abandoned scenario is not handed out while its unit runs, and is
    /// reused once that unit ends. Before, it was never handed out again.
    @Test func anAbandonedScenariosThreadIsReusedOnceItsUnitEnds() async {
        let threads = HostThreads()
        let release = DispatchSemaphore(value: 0)
        let abandoned = await threads.with { thread in
            thread.submit { release.wait() }   // the abandoned unit, still running
            return (thread, isFree: false)
        }
        let meanwhile = await threads.with { thread in (thread, isFree: true) }
        #expect(meanwhile !== abandoned, "a thread busy with an abandoned unit was handed out")
        release.signal()
        await abandoned.run {}   // the give-back runs after the unit, before this
        // The last thread given back is the next handed out: the abandoned unit's.
        let next = await threads.with { thread in (thread, isFree: true) }
        #expect(next === abandoned, "the abandoned unit's thread did not come back")
    }

    /// Rule 10: coverage's app graph loads the app under `AppLoadLimits`, as every command does:
    /// a load that runs past the load's instruction budget fails. Before, it ran unbounded.
    @Test func coveragesAppGraphLoadsUnderTheAppLoadLimits() async throws {
        let directory = try TemporaryDirectory(files: [
            "app.lua": #"local n = 0 for _ = 1, 2e8 do n = n + 1 end portolan.app { id = "root" }"#
        ])
        let runner = ScenarioRunner(options: .init(app: directory.path("app.lua"), timeout: .seconds(600)))
        await #expect(throws: HostError.self) { try await runner.appGraph() }
    }

    /// Rule 8: a `--watch` reload asked for while a URL line is between its resolution and its
    /// route waits for the line, so the line is resolved and routed by the same rules and its
    /// events stay its own. The line is held inside its resolution (a redirect rule calls a Swift
    /// function that waits for the test), the app file changes, the reload is asked for and seen
    /// waiting, and only then is the line let go. Before, the session was a reentrant actor: a
    /// reload could run while the line awaited its host, so the line could route a v1 resolution
    /// with v2's rules, and the reload took the line's events into its own update. (With the
    /// reload let past the turnstile, this test fails: the reload is never seen waiting, and the
    /// observers get the line's route in one update with the reload.)
    @Test(.timeLimit(.minutes(10))) func aReloadAskedForDuringALineWaitsForIt() async throws {
        let directory = try TemporaryDirectory(files: ["app.lua": Self.watchedApp(version: 1)])
        defer { directory.remove() }
        let output = Locked<[String]>([])
        let session = try await ReplSession.start(appFile: directory.path("app.lua"), output: { line in output.withLock { $0.append(line) } })
        let updates = UpdateLog()
        await session.addObserver(updates)
        let (resolving, lineIsResolving) = AsyncStream.makeStream(of: Void.self)
        let release = DispatchSemaphore(value: 0)
        // Called by v1's redirect rule on the host's thread: it waits for the test, not for the host.
        try await session.host.register(function: "hold") { _ in
            lineIsResolving.yield()
            release.wait()
            return []
        }
        output.withLock { $0 = [] }

        let line = Task { await session.handle("/from") }
        for await _ in resolving { break }
        try directory.write("app.lua", Self.watchedApp(version: 2))
        // A later mtime than the first write, whatever the file system's resolution.
        try FileManager.default.setAttributes(
            [.modificationDate: Date().addingTimeInterval(5)], ofItemAtPath: directory.path("app.lua"))
        let reload = Task { await session.reloadIfChanged() }
        // Until the reload is seen waiting, within two minutes: a count of yields is no bound on
        // a busy machine, where the reload's task may wait long for a thread of the pool.
        let deadline = ContinuousClock.now + .seconds(120)
        while await session.inputsWaiting == 0, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(1))
        }
        #expect(await session.inputsWaiting == 1, "the reload did not wait for the line")
        release.signal()
        #expect(await line.value == .ready)
        #expect(await reload.value)

        let lines = output.value
        let lineOutput = [
            "rewritten to /a by the redirect rules",
            "matched /a (a)",
            "v1 enters a",
            "  enter a",
            "active: root > a",
        ]
        #expect(Array(lines.prefix(lineOutput.count)) == lineOutput, "\(lines)")
        #expect(lines.dropFirst(lineOutput.count).first == directory.path("app.lua") + " changed: reloaded", "\(lines)")
        #expect(!lines.contains("v2 enters a"), "\(lines)")
        // The observers' first update after the line's is the line's, with its route.
        let told = updates.value
        #expect(told.count == 3, "\(told.map(\.routes))")
        if told.count == 3 {
            #expect(told[1].routes.map { $0.instructions.map(\.description) } == [["enter a"]], "the line lost its events: \(told[1].routes)")
            #expect(told[2].routes.isEmpty, "the reload took the line's events: \(told[2].routes)")
        }
    }

    /// The app of the reload test: v1 holds a URL line inside its redirect rule; v2 has no rule,
    /// and another handler for `a`.
    private static func watchedApp(version: Int) -> String {
        """
        portolan.app { id = "root", children = {
          { id = "a", route = "/a", enter = function() print("v\(version) enters a") end },
        } }
        \(version == 1 ? #"portolan.redirect_rule(function(url) if url == "/from" then hold() return "/a" end end)"# : "")

        """
    }
}

/// What a REPL session told its observer, in order.
private final class UpdateLog: ReplObserver {
    private let updates = Locked<[ReplUpdate]>([])
    var value: [ReplUpdate] { updates.value }

    func replDidUpdate(_ update: ReplUpdate) {
        updates.withLock { $0.append(update) }
    }
}
