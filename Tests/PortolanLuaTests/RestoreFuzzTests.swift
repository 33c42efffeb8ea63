import FuzzSupport
import TestSupport
import Testing

/// A bounded, seeded run of the restore fuzzer (`FuzzSupport/RestoreFuzzer.swift`); the long run
/// is `Benchmarks/Sources/RestoreFuzz` (scripts/fuzz.sh). A failure names the input that
/// reproduces it alone.
@Suite struct RestoreFuzzTests {
    @Test func mutatedSnapshotsAreRestoredOrRefusedWithTheStateUnchanged() async throws {
        let fuzzer = try await RestoreFuzzer(seed: 0x5AFE5)
        do {
            try await fuzzer.run(0..<3_000)
        } catch {
            Issue.record("\(error)")
        }
        // Both outcomes, or the run tests little.
        #expect(fuzzer.refused > 1_000 && fuzzer.accepted > 50, "\(fuzzer.refused) refused, \(fuzzer.accepted) accepted")
    }
}
