import FuzzSupport
import PortolanLua
import TestSupport
import Testing

/// A bounded, seeded run of the app-spec fuzzer (`FuzzSupport/AppSpecFuzzer.swift`); the long
/// run is `Benchmarks/Sources/AppSpecFuzz`. A failure names the input that reproduces it alone.
@Suite struct AppSpecFuzzTests {
    @Test func appScriptsLoadSoundOrFailAtALineOfAppLua() async throws {
        let fuzzer = try AppSpecFuzzer(seed: 0xA995EC)
        do {
            try await fuzzer.run(0..<1_000)
        } catch {
            Issue.record("\(error)")
        }
        let report = fuzzer.report
        // The generator must reach both outcomes, and routes that fail, or the run tests little.
        #expect(report.loaded > 300 && report.refused > 300 && report.refusals.count > 20 && report.failures.count >= 4, "\(report)")
    }
}
