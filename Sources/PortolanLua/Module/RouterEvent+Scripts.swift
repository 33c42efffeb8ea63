import Portolan

extension RouterEvent {
    /// Whether Lua observers get the route's step with the event.
    var carriesStep: Bool {
        switch self {
        case .willRoute, .didRoute, .failed: true
        default: false
        }
    }
}

extension RouterEvent.Name {
    /// The events a script may observe with `portolan.on`, in the order the module lists them:
    /// all but what the host reported itself (the script made that change).
    public static let observedByScripts: [RouterEvent.Name] = allCases.filter { $0 != .hostReported }

    /// The event's bit in `ScriptObservers.observedEvents`; 0 for an event no script observes.
    var observedBit: UInt8 {
        switch self {
        case .willRoute: 1 << 0
        case .instruction: 1 << 1
        case .didRoute: 1 << 2
        case .failed: 1 << 3
        case .redirected: 1 << 4
        case .rolledBack: 1 << 5
        case .hostReported: 0
        case .treeCarried: 1 << 6
        }
    }

    /// Where the event's observers sit in `ScriptRules.observers`.
    var slot: Int {
        switch self {
        case .willRoute: 0
        case .instruction: 1
        case .didRoute: 2
        case .failed: 3
        case .redirected: 4
        case .rolledBack: 5
        case .hostReported: 6
        case .treeCarried: 7
        }
    }
}
