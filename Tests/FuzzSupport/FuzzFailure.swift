/// A fuzzer's finding: the input that broke a property, and how to run that input alone.
public struct FuzzFailure: Error, CustomStringConvertible {
    /// The executable of the long run (`BridgeFuzz`, `AppSpecFuzz`), which reproduces it.
    public let fuzzer: String
    public let seed: UInt64
    public let index: Int
    /// The property that broke, and how.
    public let problem: String
    /// The input, shown (cut after 2,000 characters: some are megabytes).
    public let input: String

    public init(fuzzer: String, seed: UInt64, index: Int, problem: String, input: String) {
        self.fuzzer = fuzzer
        self.seed = seed
        self.index = index
        self.problem = problem
        self.input = input.count > 2_000 ? String(input.prefix(2_000)) + "… (\(input.count) characters)" : input
    }

    public var description: String {
        """
        \(fuzzer) failed at input \(index) of seed \(seed): \(problem)
          input: \(input)
          reproduce: swift run -c release --package-path Benchmarks \(fuzzer) --seed \(seed) --from \(index) --count 1
        """
    }
}
