import PortolanLua

/// The streams of `host.bundleOutcomes()`: every outcome an install or a canary decides, handed
/// to each stream taken before it. Any thread may take a stream or emit; a stream ends when its
/// reader stops iterating, and a reader more than `bufferLimit` outcomes behind loses the oldest.
final class BundleOutcomeHub: Sendable {
    static let bufferLimit = 256
    private let streams = Locked<(next: Int, continuations: [Int: AsyncStream<BundleInstallOutcome>.Continuation])>(
        (next: 0, continuations: [:]))

    func stream() -> AsyncStream<BundleInstallOutcome> {
        let (stream, continuation) = AsyncStream.makeStream(of: BundleInstallOutcome.self, bufferingPolicy: .bufferingNewest(Self.bufferLimit))
        let id = streams.withLock { streams in
            let id = streams.next
            streams.next += 1
            streams.continuations[id] = continuation
            return id
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.streams.withLock { $0.continuations.removeValue(forKey: id) }
        }
        return stream
    }

    func emit(_ outcome: BundleInstallOutcome) {
        let continuations = streams.withLock { Array($0.continuations.values) }
        for continuation in continuations { continuation.yield(outcome) }
    }
}
