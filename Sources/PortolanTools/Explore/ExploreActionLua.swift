import Portolan

/// The explorer's actions as the Lua a repro scenario performs them with, written by `LuaSource`.
enum ExploreActionLua {
    /// The repro's helper for a change of the app's state: the value set, then the guards asked again.
    static let setStateFunction = "local function set_state(key, value) portolan.state[key] = value; return portolan.refresh() end"

    /// A Lua expression that performs the action and gives what it returns (a result, or nil and an error).
    static func action(_ action: ExploreAction) -> String {
        switch action {
        case .route(let destination): "portolan.route(\(LuaSource.destination(destination)))"
        case .url(let url): "portolan.route(\(LuaSource.string(url)))"
        case .back: "portolan.back()"
        case .refresh: "portolan.refresh()"
        case .resume: "portolan.resume()"
        case .tab(let switchID, let child): "portolan.switch_to(\(LuaSource.string(switchID)), \(LuaSource.string(child)))"
        case .step(let name, let payload): "portolan.step(\(LuaSource.string(name)), \(LuaSource.context(payload)))"
        case .setState(let key, let value):
            "set_state(\(LuaSource.string(key)), \(LuaSource.json(value)))"
        }
    }

    /// What `portolan.plan` takes for a plannable action.
    static func plannedDestination(_ action: ExploreAction) -> String? {
        switch action {
        case .route(let destination): LuaSource.destination(destination)
        case .url(let url): LuaSource.string(url)
        default: nil
        }
    }
}
