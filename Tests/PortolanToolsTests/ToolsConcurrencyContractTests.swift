import Dispatch
import Portolan
import PortolanLua
@testable import PortolanTools
import TestSupport
import Testing

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
}
