/// A small, honest timer: warm up, calibrate a batch to a minimum wall time, run several batches,
/// and report the median batch's time per operation (the median shrugs off scheduler noise).
public struct Measurement {
    public let name: String
    /// Nanoseconds per operation, median of the batches.
    public let nanoseconds: Double
    /// Nanoseconds per operation of the fastest and slowest batch.
    public let spread: ClosedRange<Double>
    public let operationsPerBatch: Int

    @usableFromInline
    init(name: String, nanoseconds: Double, spread: ClosedRange<Double>, operationsPerBatch: Int) {
        self.name = name
        self.nanoseconds = nanoseconds
        self.spread = spread
        self.operationsPerBatch = operationsPerBatch
    }
}

/// Results are folded into this so the optimizer cannot drop the work being measured.
nonisolated(unsafe) public var sink = 0

@inline(never)
public func consume(_ value: Int) {
    sink &+= value
}

public struct Bench {
    public var batches = 15
    public var minimumBatch: Duration = .milliseconds(20)
    public var warmUp: Duration = .milliseconds(50)

    public init(batches: Int = 15, minimumBatch: Duration = .milliseconds(20), warmUp: Duration = .milliseconds(50)) {
        self.batches = batches
        self.minimumBatch = minimumBatch
        self.warmUp = warmUp
    }

    /// Measures `operation`, which must return something derived from its work (it is consumed).
    /// Inlinable so that the closure is inlined into the loop, as when this file lived in each benchmark.
    @inlinable
    public func measure(_ name: String, _ operation: () -> Int) -> Measurement {
        let clock = ContinuousClock()
        // Warm up: caches, branch predictors, lazy allocations, page faults.
        let warmStart = clock.now
        while clock.now - warmStart < warmUp {
            consume(operation())
        }
        // Calibrate: double the batch until it takes at least `minimumBatch`.
        var operations = 1
        while true {
            let elapsed = clock.measure {
                for _ in 0..<operations { consume(operation()) }
            }
            if elapsed >= minimumBatch || operations >= 1 << 30 { break }
            operations *= 2
        }
        var perOperation: [Double] = []
        for _ in 0..<batches {
            let elapsed = clock.measure {
                for _ in 0..<operations { consume(operation()) }
            }
            perOperation.append(Double(elapsed.nanoseconds) / Double(operations))
        }
        perOperation.sort()
        return Measurement(
            name: name, nanoseconds: perOperation[perOperation.count / 2],
            spread: perOperation[0]...perOperation[perOperation.count - 1], operationsPerBatch: operations)
    }
}

extension Duration {
    public var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
