/// One category's score: `12/16 (75%)`.
public struct CoverageCount: Sendable, Equatable, CustomStringConvertible {
    public var category: String
    public var covered: Int
    public var total: Int

    public init(category: String, covered: Int, total: Int) {
        self.category = category
        self.covered = covered
        self.total = total
    }

    /// Rounded down, so that 100% means everything; nil when there is nothing to cover.
    public var percent: Int? {
        total == 0 ? nil : covered * 100 / total
    }

    /// `75%`, or `n/a` when there is nothing to cover.
    public var percentText: String { percent.map { "\($0)%" } ?? "n/a" }

    /// `12/16 (75%)`.
    public var ratio: String { "\(covered)/\(total) (\(percentText))" }

    /// `nodes 12/16 (75%)`.
    public var description: String { "\(category) \(ratio)" }
}
