import FuzzSupport

// The long run of the restore fuzzer (issue 21: at least 1,000,000 mutated documents); the tests
// run a bounded one (Tests/PortolanLuaTests/RestoreFuzzTests.swift). The generator and properties
// are FuzzSupport's RestoreFuzzer, shared with that test:
//
//     swift run -c release --package-path Benchmarks RestoreFuzz [--count N] [--seed S] [--from I]

let arguments = FuzzArguments.commandLine(defaultCount: 1_000_000, defaultSeed: 0x5AFE5)
let fuzzer = try await RestoreFuzzer(seed: arguments.seed)
await LongRun.run(arguments, chunk: 20_000, inputs: "documents", report: { "\(fuzzer.refused) refused, \(fuzzer.accepted) accepted" }) {
    try await fuzzer.run($0)
}
print("\(fuzzer.refused) refused, \(fuzzer.accepted) accepted; no crash, no broken property")
