/// A fuzzer's finding: the input that broke a property, and how to run that input alone.
public struct FuzzFailure: Error, CustomStringConvertible {
    /// The executable of the long run (`ConversionFuzz`, `AppSpecFuzz`), which reproduces it.
    public let fuzzer: String
    public let seed: UInt64
    public let index: Int
    /// The property that broke, and how.
    public let problem: String
    /// The input, shown (cut after 2,000 characters: some are megabytes).
    public let input: String
    /// Whether the input reproduces alone; otherwise (the soak: each route starts where the one
    /// before it left the tree) the run reproduces from its start up to it.
    public let reproducesAlone: Bool

    public init(fuzzer: String, seed: UInt64, index: Int, problem: String, input: String, reproducesAlone: Bool = true) {
        self.fuzzer = fuzzer
        self.seed = seed
        self.index = index
        self.problem = problem
        self.input = input.count > 2_000 ? String(input.prefix(2_000)) + "… (\(input.count) characters)" : input
        self.reproducesAlone = reproducesAlone
    }

    public var description: String {
        let inputs = reproducesAlone ? "--from \(index) --count 1" : "--count \(index + 1)"
        return """
            \(fuzzer) failed at input \(index) of seed \(seed): \(problem)
              input: \(input)
              reproduce: swift run -c release --package-path Benchmarks \(fuzzer) --seed \(seed) \(inputs)
            """
    }
}
