import FuzzSupport

// The long run of Lua value conversion's fuzzer (issue 10); the tests run a bounded one
// (Tests/LuaTests/ConversionFuzzTests.swift). The generators and properties are FuzzSupport's
// ConversionFuzzer, shared with that test:
//
//     swift run -c release --package-path Benchmarks ConversionFuzz [--count N] [--seed S] [--from I]
//
// A broken property stops the run and prints the input's index, with the command that runs it alone.

let arguments = FuzzArguments.commandLine(defaultCount: 1_000_000, defaultSeed: 0xB41D_6E)
let fuzzer = try ConversionFuzzer(seed: arguments.seed)
await LongRun.run(arguments, chunk: 100_000, inputs: "inputs", report: { "\(fuzzer.report)" }) { try fuzzer.run($0) }
print("no crash, no broken property")
