/// One of `count` parts of an exploration (`--shard 2/3`, docs/explore.md, "Splitting a run"):
/// every shard explores the first levels in full, the same in each, up to the first level with
/// at least `statesPerShardAtSplit` states for each shard; from there on it keeps only the states
/// of that level whose fingerprints are its own (the fingerprint's remainder by `count`), and
/// everything they lead to. Shards overlap where their parts meet; the merge takes each state once.
public struct ExploreShard: Sendable, Equatable, CustomStringConvertible {
    /// From 1 to `count`.
    public let number: Int
    public let count: Int

    /// Fewer states than this for each shard are not split: at the first level that has more,
    /// each shard's share is large enough to even out.
    static let statesPerShardAtSplit = 8
    /// As many shards as a CI matrix would run, and no more: a merge reads every one.
    public static let most = 256

    public init?(number: Int, count: Int) {
        guard count >= 1, count <= Self.most, number >= 1, number <= count else { return nil }
        self.number = number
        self.count = count
    }

    /// `2/3`.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let number = Int(parts[0]), let count = Int(parts[1]) else { return nil }
        self.init(number: number, count: count)
    }

    public var description: String { "\(number)/\(count)" }

    func splits(atLevelOf states: Int) -> Bool { states >= count * Self.statesPerShardAtSplit }

    func owns(_ fingerprint: UInt64) -> Bool { fingerprint % UInt64(count) == UInt64(number - 1) }
}
