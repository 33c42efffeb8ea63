import Portolan

/// A shopping app's graph, the shape issue 20 was filed from: three tabs that keep their stacks,
/// and one `product` screen, declared once under `home`, that every tab, every product and every
/// product's reviews may push.
///
/// ```
/// root [switch]
/// ├─ login
/// └─ tabs [switch, keep]
///    ├─ home                 pushes product
///    │  └─ product           pushes product
///    │     └─ reviews        pushes product
///    ├─ search               pushes product
///    └─ cart                 pushes product
/// anywhere: alert
/// ```
enum ShopGraph {
    /// `key`: the product's key fields (`NodeSpec.key`).
    static func root(launch: LaunchMode? = nil, pushes: Bool = true, key: [String] = []) -> NodeSpec {
        let push: [NodeID] = pushes ? ["product"] : []
        let reviews = NodeSpec("reviews", pushes: push)
        let product = NodeSpec("product", children: [reviews], pushes: push, launch: launch, key: key)
        return .switch("root", active: "tabs", [
            .screen("login"),
            NodeSpec("tabs", kind: .switch, children: [
                NodeSpec("home", children: [product], pushes: push),
                NodeSpec("search", pushes: push),
                NodeSpec("cart", pushes: push),
            ], keepsStacks: true),
        ])
    }

    static func graph(
        limits: PathLimits = .engine, launch: LaunchMode? = nil, pushes: Bool = true, key: [String] = []
    ) throws -> NavigationGraph {
        try NavigationGraph(root: root(launch: launch, pushes: pushes, key: key), anywhere: [.screen("alert")], limits: limits)
    }

    static func tree(limits: PathLimits = .engine, launch: LaunchMode? = nil, key: [String] = []) throws -> RoutingTree {
        RoutingTree(graph: try graph(limits: limits, launch: launch, key: key))
    }

    /// `product {id=…}`, with more context when given.
    static func product(_ id: Int64, _ more: Context = [:]) -> Entry {
        Entry("product", context: more.merging(["id": .integer(id)]) { $1 })
    }

    /// The path from the root through `tab` and then `entries`.
    static func path(_ tab: NodeID, _ entries: Entry...) -> [Entry] {
        ["root", "tabs", Entry(tab)] + entries
    }
}
