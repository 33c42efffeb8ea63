/// Wall time since it was made, for the long runs' reports (never for a test's assertion).
public struct Stopwatch {
    private let start = ContinuousClock.now

    public init() {}

    public var seconds: Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    }

    /// `12.3 s`
    public var text: String {
        String(format1: seconds) + " s"
    }
}
