#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How the long fuzz runs of `Benchmarks` go: the inputs of the command line, in chunks, a line of
/// progress after each; at the first broken property, what broke and what the run had seen, and
/// exit status 1.
public enum LongRun {
    /// Runs on the caller's actor (`#isolation`), as `body` does: a fuzzer is no `Sendable` thing.
    public static func run(
        _ arguments: FuzzArguments, chunk: Int, inputs noun: String, report: () -> String,
        isolation: isolated (any Actor)? = #isolation, _ body: (Range<Int>) async throws -> Void
    ) async {
        let stopwatch = Stopwatch()
        let indices = arguments.indices
        var next = indices.lowerBound
        while next < indices.upperBound {
            let end = min(next + chunk, indices.upperBound)
            do {
                try await body(next..<end)
            } catch {
                print(error)
                print(report())
                exit(1)
            }
            next = end
            print("\(next - indices.lowerBound) \(noun), \(stopwatch.text)")
            fflush(nil)   // every stream: progress shows when the output is a file too
        }
        print("seed \(arguments.seed), \(noun) \(indices) in \(stopwatch.text): \(report())")
    }
}
