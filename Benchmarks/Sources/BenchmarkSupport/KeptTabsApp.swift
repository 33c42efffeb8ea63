import Portolan

/// The 200-node app the snapshot and bundle benchmarks share: a root, a tab bar that keeps its
/// tabs' stacks, and 3 tabs, each a chain of 65 screens. Routing to `path(tab:)` of every tab
/// opens each stack to its deepest screen (a path of 68 nodes, two stacks of 66 kept).
public enum KeptTabsApp {
    public static let chain = 65

    /// The app's source; `header` is a first line of Lua (a comment that makes two texts differ).
    /// The router keeps its last 5 routes: a snapshot holds them, so its size stays that of the state.
    public static func source(header: String = "") -> String {
        var tabs: [String] = []
        for tab in 0..<3 {
            var node = "{ id = \"t\(tab)s\(chain - 1)\" }"
            for level in stride(from: chain - 2, through: 0, by: -1) { node = "{ id = \"t\(tab)s\(level)\", children = { \(node) } }" }
            tabs.append("{ id = \"tab\(tab)\", children = { \(node) } }")
        }
        return header + "portolan.app { id = \"root\", history = 5, children = { { id = \"tabs\", kind = \"switch\", keep = true, children = { \(tabs.joined(separator: ", ")) } } } }"
    }

    /// The deepest screen of tab `tab`.
    public static func path(tab: Int) -> Destination {
        .path(["root", "tabs", Entry("tab\(tab)")] + (0..<chain).map { Entry("t\(tab)s\($0)") })
    }
}
