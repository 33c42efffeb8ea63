import Portolan

extension RouterEvent {
    /// Whether Lua observers get the route's step with the event.
    var carriesStep: Bool {
        switch self {
        case .willRoute, .didRoute, .failed: true
        default: false
        }
    }

    /// The name `portolan.on` knows the event by; nil for events Lua does not observe.
    var luaName: String? {
        Name.observedByScripts.contains(name) ? name.rawValue : nil
    }
}

extension RouterEvent.Name {
    /// The events a script may observe with `portolan.on`, in the order the module lists them:
    /// all but what the host reported itself (the script made that change).
    public static let observedByScripts: [RouterEvent.Name] = allCases.filter { $0 != .hostReported }
}
