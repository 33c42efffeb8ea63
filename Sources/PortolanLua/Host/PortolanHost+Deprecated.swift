import Lua

extension PortolanHost {
    /// The name ``call(_:chunkName:arguments:environment:)`` had.
    @available(*, deprecated, renamed: "call(_:chunkName:arguments:environment:)")
    public func values(
        running source: String, chunkName: String, arguments: [LuaValue] = [], environment: LuaChunkEnvironment = .globals
    ) throws(HostError) -> [LuaValue] {
        try call(source, chunkName: chunkName, arguments: arguments, environment: environment)
    }
}
