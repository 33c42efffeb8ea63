import Portolan

/// One declared URL route pattern: its text, as declared, and the node it leads to.
public struct CoveredPattern: Hashable, Sendable, CustomStringConvertible {
    public var node: NodeID
    public var pattern: String

    public init(node: NodeID, pattern: String) {
        self.node = node
        self.pattern = pattern
    }

    /// `/movies/:id<int> (movie)`.
    public var description: String { "\(pattern) (\(node))" }
}
