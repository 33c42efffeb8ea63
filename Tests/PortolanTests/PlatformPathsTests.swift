import CPlatform
import Foundation
@testable import Portolan
import Testing

/// The build's choice of paths where Linux and Darwin differ (`Platform.h`), and the wake-up each
/// path makes (`Wakeup.c`). scripts/test.sh runs the suite twice, the second time with the portable
/// paths forced and `PORTOLAN_EXPECT_PORTABLE` set.
@Suite struct PlatformPathsTests {
    /// What the Swift code was built to take; the C code takes the setting by a flag of its own.
    static let swiftPaths: String = {
        #if os(Linux) && !PORTOLAN_PORTABLE
        "linux"
        #else
        "portable"
        #endif
    }()

    @Test func theSwiftAndTheCCodeTakeTheSamePaths() {
        #expect(String(cString: cplatform_paths()) == Self.swiftPaths)
        #expect(Wakeup.way == (Self.swiftPaths == "linux" ? "semaphore" : "pipe"))
    }

    @Test func theRunThatAsksForThePortablePathsHasThem() {
        guard ProcessInfo.processInfo.environment["PORTOLAN_EXPECT_PORTABLE"] == "1" else { return }
        #expect(Self.swiftPaths == "portable", "scripts/test.sh's second run was not built with -DPORTOLAN_PORTABLE")
    }

    @Test func aPostMadeBeforeTheWaitWakesItAtOnce() {
        let wakeup = Wakeup()
        wakeup.post()
        let clock = ContinuousClock()
        let waited = clock.measure { wakeup.wait(until: clock.now + .seconds(60)) }
        #expect(waited < .seconds(30))
    }

    @Test func manyPostsWakeAtLeastOneWaitAndNoneIsLost() {
        let wakeup = Wakeup()
        for _ in 0..<10_000 { wakeup.post() }   // more than a pipe holds: a full one keeps a post pending
        let clock = ContinuousClock()
        let waited = clock.measure { wakeup.wait(until: clock.now + .seconds(60)) }
        #expect(waited < .seconds(30))
    }

    @Test func aWaitEndsAtItsLimitAndNotBefore() {
        let wakeup = Wakeup()
        let clock = ContinuousClock()
        let start = clock.now
        // A wait may return early (a signal), so the caller's loop waits again, as ThreadWait does.
        while clock.now < start + .milliseconds(50) { wakeup.wait(until: start + .milliseconds(50)) }
        #expect(clock.now - start >= .milliseconds(50))
    }

    @Test func aPostFromAnotherThreadWakesABlockedWait() {
        let wakeup = Wakeup()
        let clock = ContinuousClock()
        let poster = Thread {
            Thread.sleep(forTimeInterval: 0.05)   // most often the wait is asleep by then
            wakeup.post()
        }
        let waited = clock.measure {
            poster.start()
            wakeup.wait(until: clock.now + .seconds(120))
        }
        #expect(waited < .seconds(60))
    }

    /// Most hosts never wait, so a wake-up takes a descriptor only once it is waited on (the
    /// portable path's pipe; the semaphore takes none): thousands of idle ones must not reach a
    /// process's limit, or the length of /proc/self/fd at which Foundation's Process.run crashes
    /// on Linux (Wakeup.c). Other tests open files meanwhile, hence the margin.
    @Test func wakeUpsThatNobodyWaitsOnHoldNoDescriptor() throws {
        func openDescriptors() throws -> Int { try FileManager.default.contentsOfDirectory(atPath: "/dev/fd").count }
        let before = try openDescriptors()
        let idle = (0..<5_000).map { _ in Wakeup() }
        idle.forEach { $0.post() }
        let during = try openDescriptors()
        #expect(during - before < 1_000, "5,000 idle wake-ups took \(during - before) descriptors")
    }

    @Test func aPostBeforeTheFirstWaitAndOneAfterItBothWake() {
        let wakeup = Wakeup()
        let clock = ContinuousClock()
        wakeup.post()   // before the portable path's pipe exists
        #expect(clock.measure { wakeup.wait(until: clock.now + .seconds(60)) } < .seconds(30))
        wakeup.post()   // after
        #expect(clock.measure { wakeup.wait(until: clock.now + .seconds(60)) } < .seconds(30))
    }
}
