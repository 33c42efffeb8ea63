/// The bounds of a snapshot document, checked when it is written and when it is read, so that a
/// document of any bytes costs a bounded amount to refuse.
public enum SnapshotLimits {
    /// The most bytes a document may have. A snapshot holds a path (at most
    /// `NavigationGraph.maximumDepth` entries), the kept stacks, a bounded history and the app's
    /// state: 8 MiB holds all of that for any real app, and refusing more keeps a hostile file
    /// from costing more than reading it.
    public static let maximumBytes = 8 << 20

    /// The deepest nesting of arrays and objects: the document's own (the tree is a flat list, so
    /// a path of any depth nests alike) plus the state's. `JSONReader` refuses deeper nesting as
    /// it meets it, which bounds its recursion.
    public static let maximumNesting = maximumStateNesting + 16

    /// The most nodes a saved tree may hold.
    public static let maximumNodes = 100_000

    /// The deepest nesting of the app's state.
    public static let maximumStateNesting = 32

    /// How many finished routes the document keeps, newest last.
    public static let historyRoutes = 50

    /// How many entries of each switch's history (`back = "history"`) the document keeps.
    public static let switchHistoryEntries = 100
}
