import Portolan

/// One thing the explorer does in a state (docs/explore.md): what a user or the app can do there.
public enum ExploreAction: Hashable, Sendable {
    /// A route to a declared node (a path from the root, a node shown anywhere, or a push).
    case route(Destination)
    /// A URL, one that matches a pattern or one that does not.
    case url(String)
    case back
    case refresh
    case resume
    /// A tab tap: `switch_to(switchID, child)`.
    case tab(switchID: NodeID, child: NodeID)
    /// A flow step with a payload (`portolan.step`).
    case step(name: String, payload: Context)
    /// A change of the app's declared state (`portolan.state[key] = value`), then the guards asked
    /// again (`portolan.refresh()`), as an app does when its state changes.
    case setState(key: String, value: JSONValue)

    public func hash(into hasher: inout Hasher) { hasher.combine(description) }

    /// The kinds of action, in the order docs/explore.md lists them (a push and an update in place
    /// are routes): the report counts what each kind did.
    public enum Kind: String, Sendable, CaseIterable, Comparable {
        case route, url, back, refresh, resume, step, state, tab

        public static func < (lhs: Kind, rhs: Kind) -> Bool {
            allCases.firstIndex(of: lhs) ?? 0 < allCases.firstIndex(of: rhs) ?? 0
        }
    }

    public var kind: Kind {
        switch self {
        case .route: .route
        case .url: .url
        case .back: .back
        case .refresh: .refresh
        case .resume: .resume
        case .tab: .tab
        case .step: .step
        case .setState: .state
        }
    }

    /// Whether a user does it: a change of the app's state is not, so it cannot take a user out of
    /// a dead end.
    public var isUserAction: Bool {
        if case .setState = self { return false }
        return true
    }

    /// The destination a plan can be asked about, for the routes that have one.
    var plannable: Bool {
        switch self {
        case .route, .url: true
        default: false
        }
    }
}

extension ExploreAction: CustomStringConvertible {
    /// `route root > a {id=1}`, `url /a/1`, `back`, `tab tabs -> b`, `step picked {id=1}`,
    /// `state logged_in = true`: the one text of an action, in reports, graphs and repro names.
    public var description: String {
        switch self {
        case .route(let destination): "route \(destination)"
        case .url(let url): "url \(url)"
        case .back: "back"
        case .refresh: "refresh"
        case .resume: "resume"
        case .tab(let switchID, let child): "tab \(switchID) -> \(child)"
        case .step(let name, let payload): "step " + Entry(name, context: payload).description
        case .setState(let key, let value):
            "state \(key) = " + String(decoding: CanonicalJSON.bytes(of: value), as: UTF8.self)
        }
    }
}
