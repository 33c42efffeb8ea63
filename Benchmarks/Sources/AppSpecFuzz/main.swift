import FuzzSupport

// The long run of the app-spec fuzzer (issue 10); the tests run a bounded one
// (Tests/PortolanLuaTests/AppSpecFuzzTests.swift). The generator and properties are FuzzSupport's
// AppSpecFuzzer, shared with that test:
//
//     swift run -c release --package-path Benchmarks AppSpecFuzz [--count N] [--seed S] [--from I]
//
// A broken property stops the run and prints the script's index and text, with the command that
// runs it alone.

let arguments = FuzzArguments.commandLine(defaultCount: 100_000, defaultSeed: 0xA995EC)
let fuzzer = try AppSpecFuzzer(seed: arguments.seed)
await LongRun.run(arguments, chunk: 10_000, inputs: "scripts", report: { "\(fuzzer.report)" }) { try await fuzzer.run($0) }
print("the most frequent refusals:\n\(fuzzer.report.commonRefusals(12))")
print("no crash, no broken property")
