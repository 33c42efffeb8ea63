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
    static func root(launch: LaunchMode? = nil, pushes: Bool = true) -> NodeSpec {
        let push: [NodeID] = pushes ? ["product"] : []
        let reviews = NodeSpec("reviews", pushes: push)
        let product = NodeSpec("product", children: [reviews], pushes: push, launch: launch)
        return .switch("root", active: "tabs", [
            .screen("login"),
            NodeSpec("tabs", kind: .switch, children: [
                NodeSpec("home", children: [product], pushes: push),
                NodeSpec("search", pushes: push),
                NodeSpec("cart", pushes: push),
            ], keepsStacks: true),
        ])
    }

    static func graph(limits: PathLimits = .engine, launch: LaunchMode? = nil, pushes: Bool = true) throws -> NavigationGraph {
        try NavigationGraph(root: root(launch: launch, pushes: pushes), anywhere: [.screen("alert")], limits: limits)
    }

    static func tree(limits: PathLimits = .engine, launch: LaunchMode? = nil) throws -> RoutingTree {
        RoutingTree(graph: try graph(limits: limits, launch: launch))
    }

    /// `product {id=…}`.
    static func product(_ id: Int64) -> Entry {
        Entry("product", context: ["id": .integer(id)])
    }

    /// The path from the root through `tab` and then `entries`.
    static func path(_ tab: NodeID, _ entries: Entry...) -> [Entry] {
        ["root", "tabs", Entry(tab)] + entries
    }
}
