#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FuzzSupport

// The long run of the Lua value bridge's fuzzer (issue 10); the tests run a bounded one
// (Tests/LuaTests/BridgeFuzzTests.swift). The generators and properties are FuzzSupport's
// BridgeFuzzer, shared with that test:
//
//     swift run -c release --package-path Benchmarks BridgeFuzz [--count N] [--seed S] [--from I]
//
// A broken property stops the run and prints the input's index, with the command that runs it alone.

let arguments = FuzzArguments.commandLine(defaultCount: 1_000_000, defaultSeed: 0xB41D_6E)
let fuzzer = try BridgeFuzzer(seed: arguments.seed)
let stopwatch = Stopwatch()
var next = arguments.indices.lowerBound
while next < arguments.indices.upperBound {
    let end = min(next + 100_000, arguments.indices.upperBound)
    do {
        try fuzzer.run(next..<end)
    } catch {
        print(error)
        print(fuzzer.report)
        exit(1)
    }
    next = end
    print("\(next - arguments.indices.lowerBound) inputs, \(stopwatch.text)")
}
print("seed \(arguments.seed), inputs \(arguments.indices) in \(stopwatch.text): \(fuzzer.report)")
print("no crash, no broken property")
