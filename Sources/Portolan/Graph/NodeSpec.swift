/// A node as an app declares it, with the nodes declared below it.
///
/// `NavigationGraph` validates a tree of these; a spec itself may be anything a script wrote.
public struct NodeSpec: Sendable, Equatable {
    public var id: NodeID
    public var kind: NodeKind
    /// A switch node's initially active child; the first child when nil.
    public var active: NodeID?
    public var children: [NodeSpec]
    /// URL route patterns that lead to this node (`/movies/:id<int>`); see `RoutePattern`.
    public var routes: [String]
    /// How its patterns read case and a final slash, where they differ from the app's.
    public var routeOptions = RouteOptions.app
    /// On a switch node: a route that switches away from a child keeps what is open inside it (as a
    /// tab bar keeps each tab's stack) instead of leaving it first.
    public var keepsStacks: Bool
    /// On a switch node: where back takes it when nothing is left to leave inside its active child
    /// (`TabBackBehavior`; `none`, the default, does not switch).
    public var back: TabBackBehavior
    /// Whether back returns the switch to the children it was switched away from, every switch
    /// remembered: `back == .fullHistory`. (The flag this engine had before `TabBackBehavior`.)
    public var backThroughHistory: Bool {
        get { back == .fullHistory }
        set { back = newValue ? .fullHistory : .none }
    }
    /// On a screen: the nodes declared elsewhere that may be pushed on top of it, any number of
    /// times, each copy with its own context (a product page that every tab and every product
    /// pushes). A screen that lists itself may be pushed over itself.
    public var pushes: [NodeID]
    /// How a push of this node treats a copy already on the stack, unless the push says otherwise;
    /// nil for the default, `LaunchMode.push`.
    public var launch: LaunchMode?
    /// The context fields that make an entry of this node the screen it is (React Navigation's
    /// `getId`): two entries with equal values there are the same screen, so a route or a push that
    /// finds one with another context updates it in place (`Instruction.update`) instead of
    /// leaving it and entering another. Empty: an entry is the same screen only when its whole
    /// context is equal.
    public var key: [String]
    /// On a screen: back never leaves it, so it is the floor of the stack it stands in (React
    /// Navigation's first screen of a stack): back leaves only what stands above it, and from the
    /// floor itself a switch node further out may go back among its children. A route still leaves
    /// it when its destination does not hold it.
    public var isFloor = false

    public init(
        _ id: NodeID, kind: NodeKind = .screen, active: NodeID? = nil, children: [NodeSpec] = [], routes: [String] = [],
        keepsStacks: Bool = false, back: TabBackBehavior = .none, pushes: [NodeID] = [], launch: LaunchMode? = nil,
        key: [String] = []
    ) {
        self.id = id
        self.kind = kind
        self.active = active
        self.children = children
        self.routes = routes
        self.keepsStacks = keepsStacks
        self.back = back
        self.pushes = pushes
        self.launch = launch
        self.key = key
    }

    /// A node as `init` makes it, whose switch goes back through its history when
    /// `backThroughHistory` (every switch remembered: `TabBackBehavior.fullHistory`).
    @available(*, deprecated, message: "use back: .fullHistory, or .history to remember each child once")
    public init(
        _ id: NodeID, kind: NodeKind = .screen, active: NodeID? = nil, children: [NodeSpec] = [], routes: [String] = [],
        keepsStacks: Bool = false, backThroughHistory: Bool, pushes: [NodeID] = [], launch: LaunchMode? = nil
    ) {
        self.init(
            id, kind: kind, active: active, children: children, routes: routes, keepsStacks: keepsStacks,
            back: backThroughHistory ? .fullHistory : .none, pushes: pushes, launch: launch)
    }

    /// A switch node; `active` defaults to the first child.
    public static func `switch`(
        _ id: NodeID, active: NodeID? = nil, keepsStacks: Bool = false, _ children: [NodeSpec]
    ) -> NodeSpec {
        NodeSpec(id, kind: .switch, active: active, children: children, keepsStacks: keepsStacks)
    }

    /// A screen node.
    public static func screen(_ id: NodeID, _ children: [NodeSpec] = []) -> NodeSpec {
        NodeSpec(id, kind: .screen, children: children)
    }

    /// The same node, which may also have these nodes pushed on top of it (`pushes`).
    public func pushing(_ ids: NodeID...) -> NodeSpec {
        var node = self
        node.pushes += ids
        return node
    }

    /// The same node, whose entries are the same screen when these context fields are equal (`key`).
    public func keyed(by fields: String...) -> NodeSpec {
        var node = self
        node.key = fields
        return node
    }

    /// The same node, reached also by these URL route patterns.
    public func routed(_ patterns: String...) -> NodeSpec {
        var node = self
        node.routes += patterns
        return node
    }
}
