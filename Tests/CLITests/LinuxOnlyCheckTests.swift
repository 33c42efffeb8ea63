import Foundation
import Testing
import TestSupport

/// scripts/linux-only.py, the check scripts/test.sh runs: the repository passes, and a Linux-only
/// call added later to a copy of its sources fails it, named by file and line.
@Suite struct LinuxOnlyCheckTests {
    /// Runs the check on `root` (a repository's copy).
    private func check(root: String = Repository.root) async throws -> PortolanBinary.Run {
        try await PortolanBinary.run(
            program: "/usr/bin/env", ["python3", Repository.path("scripts/linux-only.py"), "--root", root], in: Repository.root)
    }

    /// A copy of the repository's Sources with `files` added (paths relative to the copy's root).
    private func copyOfSources(adding files: [String: String]) throws -> TemporaryDirectory {
        let copy = try TemporaryDirectory("linux-only")
        try FileManager.default.copyItem(atPath: Repository.path("Sources"), toPath: copy.path("Sources"))
        for (name, text) in files { try copy.write(name, text) }
        return copy
    }

    @Test func theRepositoryHasNoLinuxOnlyUseOutsideItsSeams() async throws {
        let run = try await check()
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("Sources/CPlatform/Wakeup.c:"))   // each seam's uses are listed
        #expect(run.stdout.contains("No Linux-only use outside them."))
    }

    @Test func aLinuxOnlyCallAddedToTheEngineFailsTheCheck() async throws {
        let copy = try copyOfSources(adding: [
            "Sources/Portolan/Concurrency/Later.swift": "import Glibc\n\nfunc later(_ s: UnsafeMutablePointer<sem_t>) {\n    var until = timespec()\n    _ = sem_timedwait(s, &until)\n}\n",
        ])
        defer { copy.remove() }
        let run = try await check(root: copy.root)
        #expect(run.status == 1)
        #expect(run.stdout.contains("Sources/Portolan/Concurrency/Later.swift:5: sem_timedwait: Linux only (Darwin has no sem_timedwait)"))
        #expect(run.stdout.contains("Sources/Portolan/Concurrency/Later.swift:1: import Glibc outside `#if canImport(Glibc)`"))
    }

    @Test func aLinuxHeaderAddedToTheShimFailsIt() async throws {
        let copy = try copyOfSources(adding: ["Sources/CLuaShim/Later.c": "#include <sys/inotify.h>\nint later(void) { return inotify_init1(0); }\n"])
        defer { copy.remove() }
        let run = try await check(root: copy.root)
        #expect(run.status == 1)
        #expect(run.stdout.contains("Sources/CLuaShim/Later.c:2: inotify_: Linux only"))
    }

    @Test func aSeamMayUseOnlyTheNamesItIsListedFor() async throws {
        // The confined file's seam uses openat2; the wake-up's may not.
        let wakeup = try String(contentsOfFile: Repository.path("Sources/CPlatform/Wakeup.c"), encoding: .utf8)
        let copy = try copyOfSources(adding: ["Sources/CPlatform/Wakeup.c": wakeup + "\nstatic const char *later = \"/proc/self/exe\";\n"])
        defer { copy.remove() }
        let run = try await check(root: copy.root)
        #expect(run.status == 1)
        #expect(run.stdout.contains("Sources/CPlatform/Wakeup.c:") && run.stdout.contains(": /proc/: Linux only"))
    }

    @Test func aCommentThatNamesOneIsNoUse() async throws {
        let copy = try copyOfSources(adding: [
            "Sources/Portolan/Concurrency/Later.swift": "// Unlike sem_timedwait, this waits on nothing.\n/* no /proc/ here\n   nor O_PATH */\nfunc later() {}\n",
        ])
        defer { copy.remove() }
        let run = try await check(root: copy.root)
        #expect(run.status == 0, "\(run.stdout)")
    }
}
