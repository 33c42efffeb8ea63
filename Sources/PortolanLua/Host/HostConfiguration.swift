import Lua
import Portolan

/// Limits a host keeps so that no script can hang or exhaust the process.
public struct HostConfiguration: Sendable {
    /// How long one handler, guard or interceptor may take, waits included (kind `timeout`).
    public var handlerTimeout: Duration
    /// Lua instructions one handler may run between two waits (an endless loop fails its route).
    public var handlerInstructionBudget: Int
    /// Lua instructions a script's main flow may run between two routes; nil for no limit (the REPL
    /// and the scenario runner interrupt it instead).
    public var scriptInstructionBudget: Int?
    /// Bytes the Lua state may hold.
    public var memoryLimit: Int
    /// Where `require` looks for the app's own Lua files, besides the `portolan` module.
    public var moduleDirectory: String?
    /// Swift functions registered in the host as it starts, as `register(function:)` registers
    /// them: how a rules bundle's gate gives its sandboxed hosts the live host's functions.
    public var functions: [String: HostFunction]

    public init(
        handlerTimeout: Duration = RouterConfiguration.defaultHandlerTimeout,
        handlerInstructionBudget: Int = 10_000_000,
        scriptInstructionBudget: Int? = nil,
        memoryLimit: Int = 256 << 20,
        moduleDirectory: String? = nil,
        functions: [String: HostFunction] = [:]
    ) {
        self.handlerTimeout = handlerTimeout
        self.handlerInstructionBudget = handlerInstructionBudget
        self.scriptInstructionBudget = scriptInstructionBudget
        self.memoryLimit = memoryLimit
        self.moduleDirectory = moduleDirectory
        self.functions = functions
    }
}

/// A Swift function Lua calls by name (`PortolanHost.register(function:_:)`).
public typealias HostFunction = @Sendable ([LuaValue]) throws -> [LuaValue]
