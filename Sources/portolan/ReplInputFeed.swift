import Synchronization

/// The REPL's input, one item at a time: the lines read from the terminal or a pipe, and
/// `--watch`'s checks for a changed app file, merged into one stream that one loop handles in
/// order. A reload asked for while a line runs waits for the line: the line is resolved and routed
/// by the same rules, and its event log is its own (docs/concurrency.md, rule 8).
///
/// The reader reads the next line only when told (`readNext`): the prompt depends on the line
/// before, and a line must not be read ahead of a reload it should see.
final class ReplInputFeed: Sendable {
    enum Input: Sendable {
        case read(TerminalReader.Event)
        case watch
    }

    let inputs: AsyncStream<Input>
    private let feed: AsyncStream<Input>.Continuation
    private let nextLine: AsyncStream<Void>.Continuation
    private let tasks = Mutex<[Task<Void, Never>]>([])
    /// Whether a watch check waits in the stream: one is enough, however long a line runs.
    private let watchPending = Atomic<Bool>(false)

    /// Starts reading with `read`, which blocks or suspends until the next input.
    init(read: @escaping @Sendable () async -> TerminalReader.Event) {
        (inputs, feed) = AsyncStream.makeStream(of: Input.self)
        let (requests, nextLine) = AsyncStream.makeStream(of: Void.self)
        self.nextLine = nextLine
        let feed = self.feed
        let reader = Task {
            for await _ in requests {
                let event = await read()
                feed.yield(.read(event))
                if case .end = event { return }
            }
        }
        tasks.withLock { $0.append(reader) }
        nextLine.yield()
    }

    /// Reads the next line, once the one before was handled.
    func readNext() {
        nextLine.yield()
    }

    /// Offers a watch check every `interval`, unless one already waits.
    func watch(every interval: Duration) {
        let feed = self.feed
        let watcher = Task { [self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                if !self.watchPending.exchange(true, ordering: .acquiringAndReleasing) { feed.yield(.watch) }
            }
        }
        tasks.withLock { $0.append(watcher) }
    }

    /// The loop took the pending watch check.
    func tookWatch() {
        watchPending.store(false, ordering: .releasing)
    }

    func stop() {
        for task in tasks.withLock({ $0 }) { task.cancel() }
        nextLine.finish()
        feed.finish()
    }
}
