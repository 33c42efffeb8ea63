import FuzzSupport

// The long run of the bundle reader's fuzzer (issue 22: at least 1,000,000 mutated bundles, no
// crash, no changed bundle verified); the tests run a bounded one
// (Tests/PortolanLuaTests/BundleReaderTests.swift). The generator and property are FuzzSupport's
// BundleFuzzer, shared with that test:
//
//     swift run -c release --package-path Benchmarks BundleFuzz [--count N] [--seed S] [--from I]

let arguments = FuzzArguments.commandLine(defaultCount: 1_000_000, defaultSeed: 0xB0D1E)
let fuzzer = try BundleFuzzer(seed: arguments.seed)
await LongRun.run(arguments, chunk: 50_000, inputs: "bundles", report: { "\(fuzzer.refused) refused, \(fuzzer.accepted) accepted" }) {
    try fuzzer.run($0)
}
print("\(fuzzer.refused) refused, \(fuzzer.accepted) accepted; no crash, no changed bundle verified")
