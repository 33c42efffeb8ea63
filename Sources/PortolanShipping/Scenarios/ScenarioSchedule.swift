import PortolanLua

/// One unit of a run, known once its file was listed: a scenario to run in a fresh host, or an
/// entry whose result the listing already gave (a file that cannot be listed or declares no
/// scenario, a scenario whose app did not load).
public struct ScenarioEntry: Sendable, Equatable {
    /// The scenario file, as given to the runner.
    public var file: String
    /// The scenario's 1-based index in its file; 0 for the file's own entry.
    public var index: Int
    /// The scenario's name, or ``ScenarioResult/fileFailureName``.
    public var name: String
    /// The result, when the listing already knows it; nil when the scenario must run.
    public var known: ScenarioResult?
    /// `scenario.only` or `scenario.skip`, when the file declared it so (`ScenarioSelection`).
    public var mark: ScenarioMark?

    public init(file: String, index: Int, name: String, known: ScenarioResult? = nil, mark: ScenarioMark? = nil) {
        self.file = file
        self.index = index
        self.name = name
        self.known = known
        self.mark = mark
    }
}

/// `--shard i/n`: the i-th of n deterministic, disjoint parts of a run's entries, whose union is
/// every entry exactly once.
///
/// Entries are sorted by file path, then index in the file (then by position, for a file given
/// twice), and dealt round-robin: the p-th entry (0-based) of that order goes to shard p mod n + 1.
/// So the split does not depend on the order the files were given in, and shard sizes differ by
/// at most one. Within a shard, entries keep the run's order.
public struct ScenarioShard: Sendable, Equatable, CustomStringConvertible {
    /// 1-based.
    public let index: Int
    public let count: Int

    public struct Invalid: Error, Sendable, Equatable, CustomStringConvertible {
        public var description: String
    }

    public init(index: Int, count: Int) throws(Invalid) {
        guard count >= 1 else {
            throw Invalid(description: "the shard count must be at least 1, not \(count)")
        }
        guard (1...count).contains(index) else {
            throw Invalid(description: "the shard index must be between 1 and \(count), not \(index)")
        }
        self.index = index
        self.count = count
    }

    /// Parses `i/n`, as `--shard` takes it.
    public init(parsing text: String) throws(Invalid) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Self.number(parts[0]), let count = Self.number(parts[1]) else {
            throw Invalid(description: "a shard is i/n with whole numbers 1 ≤ i ≤ n (e.g. 2/4), not \"\(text)\"")
        }
        try self.init(index: index, count: count)
    }

    private static func number(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(text)
    }

    public var description: String { "\(index)/\(count)" }

    /// The entries of this shard, in their given order.
    public func select(_ entries: [ScenarioEntry]) -> [ScenarioEntry] {
        let order = entries.indices.sorted { a, b in
            let x = entries[a], y = entries[b]
            if x.file != y.file { return x.file.utf8.lexicographicallyPrecedes(y.file.utf8) }
            if x.index != y.index { return x.index < y.index }
            return a < b
        }
        var chosen = [Bool](repeating: false, count: entries.count)
        for (position, entry) in order.enumerated() where position % count == index - 1 {
            chosen[entry] = true
        }
        return entries.indices.filter { chosen[$0] }.map { entries[$0] }
    }
}

extension ScenarioRunner {
    /// Lists every file, at most `options.jobs` at a time, and gives the run's entries in order:
    /// the files' order, then each file's scenarios in declaration order.
    public func entries(files: [String]) async -> [ScenarioEntry] {
        var listings: [Listing?] = Array(repeating: nil, count: files.count)
        await Self.inOrder(count: files.count, jobs: options.jobs, work: { [self] position in
            await list(file: files[position])
        }, deliver: { position, listing in
            listings[position] = listing
        })
        var entries: [ScenarioEntry] = []
        for (file, listing) in zip(files, listings) {
            switch listing {
            case .failed(let result)?:
                entries.append(ScenarioEntry(file: file, index: 0, name: result.name, known: result))
            case .listed(let found, appError: let appError)?:
                if found.isEmpty {
                    entries.append(ScenarioEntry(
                        file: file, index: 0, name: ScenarioResult.fileFailureName,
                        known: ScenarioResult(
                            file: file, name: ScenarioResult.fileFailureName,
                            outcome: .failed("declares no scenario: call scenario(name, fn) for each case"))))
                }
                for (offset, scenario) in found.enumerated() {
                    let known = appError.map {
                        ScenarioResult(file: file, name: scenario.name, outcome: .failed("the app did not load: " + $0))
                    }
                    entries.append(ScenarioEntry(
                        file: file, index: offset + 1, name: scenario.name, known: known, mark: scenario.mark))
                }
            case nil:
                break   // not reached: every position is delivered
            }
        }
        return entries
    }

    /// Runs the entries, at most `options.jobs` at a time, each scenario in its own fresh host;
    /// `report` sees the results in the entries' order, each as soon as it and all before it are
    /// known, whatever order they finish in.
    @discardableResult
    public func run(entries: [ScenarioEntry], report: (ScenarioResult) -> Void = { _ in }) async -> [ScenarioResult] {
        var results: [ScenarioResult] = []
        results.reserveCapacity(entries.count)
        await Self.inOrder(count: entries.count, jobs: options.jobs, work: { [self] position in
            let entry = entries[position]
            if let known = entry.known { return known }
            return await run(file: entry.file, scenario: entry.index, named: entry.name)
        }, deliver: { _, result in
            results.append(result)
            report(result)
        })
        return results
    }

    /// Runs `work` for positions 0..<count, at most `jobs` at once, and hands each value to
    /// `deliver` in position order (holding back those that finish early).
    static func inOrder<Value: Sendable>(
        count: Int, jobs: Int,
        work: @escaping @Sendable (Int) async -> Value,
        deliver: (Int, Value) -> Void
    ) async {
        let width = max(1, min(jobs, count))
        if width == 1 {
            for position in 0..<count { deliver(position, await work(position)) }
            return
        }
        await withTaskGroup(of: (Int, Value).self) { group in
            var started = 0
            func start() {
                let position = started
                started += 1
                group.addTask {
                    (position, await work(position))
                }
            }
            while started < width { start() }
            var waiting: [Int: Value] = [:]
            var next = 0
            while let (position, value) = await group.next() {
                waiting[position] = value
                while let ready = waiting.removeValue(forKey: next) {
                    deliver(next, ready)
                    next += 1
                }
                if started < count { start() }
            }
        }
    }
}
