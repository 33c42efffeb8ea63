#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The options of a long run in `Benchmarks`: `--count N` inputs (or routes), from input
/// `--from I`, of the run seeded `--seed S`. Each input draws from its own generator
/// (`SeededRandom.forInput`), so `--from I --count 1` runs input I alone.
public struct FuzzArguments {
    public var count: Int
    public var seed: UInt64
    public var from: Int

    /// Reads `arguments` (the command line without the program's name), or says which one it
    /// does not understand.
    public static func parse(_ arguments: [String], defaultCount: Int, defaultSeed: UInt64) -> Result<FuzzArguments, ArgumentError> {
        var parsed = FuzzArguments(count: defaultCount, seed: defaultSeed, from: 0)
        var rest = arguments[...]
        while let name = rest.popFirst() {
            guard let text = rest.popFirst(), let number = UInt64(text) else {
                return .failure(ArgumentError(message: "\(name) needs a whole number"))
            }
            switch name {
            case "--count": parsed.count = Int(clamping: number)
            case "--seed": parsed.seed = number
            case "--from": parsed.from = Int(clamping: number)
            default: return .failure(ArgumentError(message: "unknown option \(name)"))
            }
        }
        return .success(parsed)
    }

    /// The options of this process's command line; a bad one ends the process (status 2).
    public static func commandLine(defaultCount: Int, defaultSeed: UInt64) -> FuzzArguments {
        switch parse(Array(CommandLine.arguments.dropFirst()), defaultCount: defaultCount, defaultSeed: defaultSeed) {
        case .success(let arguments):
            return arguments
        case .failure(let error):
            print(error)
            exit(2)
        }
    }

    /// The indices of the inputs to run.
    public var indices: Range<Int> {
        from..<(from + min(count, Int.max - from))
    }
}

public struct ArgumentError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message + " (options: --count N --seed S --from I)" }
}
