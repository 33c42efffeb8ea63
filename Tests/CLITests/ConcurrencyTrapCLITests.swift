import Foundation
import Testing
import TestSupport

/// The concurrency contract's rule 5 (docs/concurrency.md): a Swift function called from Lua that
/// waits for a task of its own which calls the host traps at once, with a message that says why.
/// A trap ends its process, so the case runs in `contract-probe`, a process of its own.
@Suite struct ConcurrencyTrapCLITests {
    @Test func aSwiftFunctionThatWaitsForItsOwnHostTrapsAtOnce() async throws {
        let probe = try #require(PortolanBinary.sibling("contract-probe"), "contract-probe is built beside portolan")
        let directory = try TemporaryDirectory("probe")
        defer { directory.remove() }
        // Without Swift's backtracer: the trap is what is tested, and under AddressSanitizer the
        // backtracer's copy of the trapped thread's stack is itself reported, which left the probe
        // a zombie that Foundation's Process never saw end (the ASan run hung here).
        let run = try await PortolanBinary.run(program: probe, [], in: directory.root, environment: ["SWIFT_BACKTRACE": "enable=no"])
        // Exit 3 is the probe's own limit running out: the wait forever the rule forbids.
        #expect(run.signalled, "the probe should trap; it exited \(run.status): \(run.stdout)")
        #expect(run.stderr.contains("a Swift function called from Lua awaited its own Portolan host"))
        #expect(run.stderr.contains("Task.detached"))
        #expect(!run.stdout.contains("the function returned"))
    }
}
