import FuzzSupport
import Lua
import TestSupport
import Testing

/// A bounded, seeded run of the conversion fuzzer (`FuzzSupport/ConversionFuzzer.swift`); the long run is
/// `Benchmarks/Sources/ConversionFuzz`. A failure names the input that reproduces it alone.
@Suite struct ConversionFuzzTests {
    @Test func valuesRoundTripOrAreRefusedCleanlyAndTheStateLivesOn() throws {
        let fuzzer = try ConversionFuzzer(seed: 0xB41D_6E)
        do {
            try fuzzer.run(0..<6_000)
        } catch {
            Issue.record("\(error)")
        }
        let report = fuzzer.report
        // The generators must reach every outcome, or the run tests little.
        #expect(report.roundTripped > 1_000 && report.converted > 1_000, "\(report)")
        for fault in BridgeFault.allCases {
            #expect(report.refused[fault, default: 0] > 0, "no input was refused as '\(fault.rawValue)': \(report)")
        }
    }
}
