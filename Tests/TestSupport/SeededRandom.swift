/// SplitMix64: a tiny random number generator fully determined by its seed, so that every
/// property, fuzz and rendering test (and the long fuzz runs of `Benchmarks`) is reproducible from
/// the seed it prints.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    public mutating func chance(_ probability: Double) -> Bool {
        Double.random(in: 0..<1, using: &self) < probability
    }

    public mutating func below(_ bound: Int) -> Int {
        Int.random(in: 0..<bound, using: &self)
    }

    public mutating func pick<Element>(_ elements: [Element]) -> Element? {
        elements.randomElement(using: &self)
    }

    /// A value in `range` by plain modulo: slightly biased, but stable across Swift versions.
    public mutating func int(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.count))
    }

    /// True once in `n` draws on average, by modulo like `int(in:)`.
    public mutating func oneIn(_ n: Int) -> Bool {
        next() % UInt64(max(1, n)) == 0
    }

    /// An element of a non-empty array, drawn with `int(in:)`.
    public mutating func element<Element>(_ elements: [Element]) -> Element {
        elements[int(in: 0...elements.count - 1)]
    }

    /// The generator of input `index` of a run seeded with `seed`: each input draws from its own,
    /// so one input reproduces alone (`--seed S --from I --count 1`).
    public static func forInput(_ index: Int, seed: UInt64) -> SeededRandom {
        var mixer = SeededRandom(seed: seed ^ (UInt64(truncatingIfNeeded: index) &* 0xD1B5_4A32_D192_ED03))
        return SeededRandom(seed: mixer.next())
    }
}
