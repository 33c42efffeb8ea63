import Lua

/// The names the host's calls had, kept for one release so that an embedder's code builds while
/// it moves to the new ones. Each forwards to the one way it now is.
extension PortolanHost {
    /// The name ``call(_:chunkName:arguments:environment:)`` had.
    @available(*, deprecated, renamed: "call(_:chunkName:arguments:environment:)")
    public func values(
        running source: String, chunkName: String, arguments: [LuaValue] = [], environment: LuaChunkEnvironment = .globals
    ) throws(HostError) -> [LuaValue] {
        try call(source, chunkName: chunkName, arguments: arguments, environment: environment)
    }

    @available(*, deprecated, message: "use loadApp(.file(path))")
    public func loadApp(file path: String, instructionBudget: Int? = nil) throws(HostError) {
        try loadApp(.file(path), instructionBudget: instructionBudget)
    }

    @available(*, deprecated, message: "use loadApp(.fileWithText(path, text: source))")
    public func loadApp(file path: String, source: String, instructionBudget: Int? = nil) throws(HostError) {
        try loadApp(.fileWithText(path, text: source), instructionBudget: instructionBudget)
    }

    @available(*, deprecated, message: "use loadApp(.source(source, chunkName: chunkName))")
    public func loadApp(source: String, chunkName: String, instructionBudget: Int? = nil) throws(HostError) {
        try loadApp(.source(source, chunkName: chunkName), instructionBudget: instructionBudget)
    }

    @available(*, deprecated, message: "use reload(.file(path))")
    @discardableResult
    public func reload(file path: String, instructionBudget: Int? = nil) throws(HostError) -> ReloadResult {
        try reload(.file(path), instructionBudget: instructionBudget)
    }

    @available(*, deprecated, message: "use reload(.source(source, chunkName: chunkName))")
    @discardableResult
    public func reload(source: String, chunkName: String, instructionBudget: Int? = nil) throws(HostError) -> ReloadResult {
        try reload(.source(source, chunkName: chunkName), instructionBudget: instructionBudget)
    }
}
