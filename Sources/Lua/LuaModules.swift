import CLua
import CLuaShim

// What `require` finds: modules preloaded by the host and, in a sandboxed state, `name.lua` files under the
// module directory (the sandbox itself is opened in `LuaState.init`, its C side in Sandbox.c). The preload table
// is the registry's `_PRELOAD`, the one `package.preload` uses, so preloading works the same in a sandboxed state
// (whose require is the shim's) and a full one (Lua's own).

extension LuaState {
    /// Makes `require(name)` call `loader(name, ":preload:")` the first time and return what it returns
    /// (cached in `package.loaded`).
    public func preload(name: String, loader: @escaping LuaFunction) throws(LuaError) {
        try preload(name: name, function: function(loader))
    }

    /// Makes `require(name)` return `module`.
    public func preload(name: String, module: LuaValue) throws(LuaError) {
        try preload(name: name, loader: { _, _ in [module] })
    }

    /// Makes `require(name)` run `source`, compiled now (syntax errors are thrown here) and named `chunkName`
    /// (by default `name.lua`) in error messages.
    public func preload(name: String, source: String, chunkName: String? = nil) throws(LuaError) {
        try preload(name: name, function: load(source, chunkName: chunkName ?? "\(name).lua"))
    }

    /// Makes `require(name)` call the Lua function `function` (a loader made in Lua, whose upvalues keep the
    /// module's identity) the first time and return what it returns.
    public func preload(name: String, function: LuaValue) throws(LuaError) {
        let L = thread
        try ensureStack(L, 4)
        try push(function, on: L)
        try check(name.withCString { cluashim_psetpreload(L, $0) }, on: L)
    }

    /// Sets ``moduleDirectory``.
    public func setModuleDirectory(_ directory: String?) throws(LuaError) {
        let L = thread
        try ensureStack(L, 4)
        let status: CInt
        if let directory {
            status = directory.withCString { cluashim_psetmoduledirectory(L, $0) }
        } else {
            status = cluashim_psetmoduledirectory(L, nil)
        }
        try check(status, on: L)
        moduleDirectory = directory
    }

    /// The files the sandboxed `require` has read modules from (under ``moduleDirectory``), sorted. Always
    /// empty in a full state, whose `require` is Lua's own.
    public var requiredFiles: [String] {
        get throws(LuaError) {
            let L = thread
            try ensureStack(L, 4)
            try check(cluashim_prequiredfiles(L), on: L)
            defer { cluashim_pop(L, 1) }
            guard case .table(let paths) = try value(at: -1, on: L) else { return [] }
            return paths.values.compactMap(\.stringValue).sorted()
        }
    }

    /// Makes the next `require` of each module in ``requiredFiles`` read its file again, and empties that
    /// list: for a host that reloads scripts whose files changed. Preloaded modules stay loaded.
    public func forgetRequiredModules() throws(LuaError) {
        let L = thread
        try ensureStack(L, 4)
        try check(cluashim_pforgetrequiredmodules(L), on: L)
    }

    /// Whether the sandboxed `require` accepts `name` for a file search.
    public static func isValidModuleName(_ name: String) -> Bool {
        cluashim_validmodulename(name) != 0
    }
}
