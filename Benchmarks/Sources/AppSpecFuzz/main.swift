#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
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
let stopwatch = Stopwatch()
var next = arguments.indices.lowerBound
while next < arguments.indices.upperBound {
    let end = min(next + 10_000, arguments.indices.upperBound)
    do {
        try await fuzzer.run(next..<end)
    } catch {
        print(error)
        print(fuzzer.report)
        exit(1)
    }
    next = end
    print("\(next - arguments.indices.lowerBound) scripts, \(stopwatch.text)")
}
print("seed \(arguments.seed), scripts \(arguments.indices) in \(stopwatch.text): \(fuzzer.report)")
print("the most frequent refusals:\n\(fuzzer.report.commonRefusals(12))")
print("no crash, no broken property")
