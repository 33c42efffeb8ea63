import CLua
import CLuaShim

/// A text chunk compiled once to Lua bytecode, to load again (into any state) without parsing.
///
/// Only ``LuaState/compile(_:chunkName:)`` makes one, from text this process compiled, so loading
/// it is as safe as loading the text: binary chunks from anywhere else (a script's `load`) are
/// still refused. Line information is kept, so errors name the same file:line.
public struct LuaCompiledChunk: Sendable, Hashable {
    let bytecode: [UInt8]
    public let chunkName: String

    init(bytecode: [UInt8], chunkName: String) {
        self.bytecode = bytecode
        self.chunkName = chunkName
    }

    /// Bytecode the host built into its own binary from its own source (the `portolan` module's
    /// parts, `scripts/compile-module.lua`), never bytes a script or a file supplied: Lua does not
    /// verify bytecode, so loading anything else could break out of the sandbox. The caller checks
    /// that it was compiled from the source it stands for, by the Lua release that runs it.
    public init(hostBytecode bytecode: [UInt8], chunkName: String) {
        self.init(bytecode: bytecode, chunkName: chunkName)
    }

    /// The bytecode, to compare with another compilation of the same source.
    public var bytes: [UInt8] { bytecode }
}

extension LuaState {
    /// Compiles `source` to bytecode (see ``LuaCompiledChunk``); a syntax error is thrown as by `load`.
    public func compile(_ source: [UInt8], chunkName: String) throws(LuaError) -> LuaCompiledChunk {
        let L = thread
        let top = lua_gettop(L)
        defer { lua_settop(L, top) }
        try ensureStack(L, 2)
        let function = try load(bytes: source, chunkName: chunkName)   // the parser's checks and errors
        try push(function, on: L)
        var bytecode: [UInt8] = []
        // lua_dump calls the writer with pieces of the bytecode; it does not allocate in Lua or raise.
        let status = withUnsafeMutablePointer(to: &bytecode) { buffer in
            lua_dump(L, { _, piece, size, buffer in
                guard let piece, let buffer else { return 1 }
                let bytes = UnsafeRawBufferPointer(start: piece, count: size)
                buffer.assumingMemoryBound(to: [UInt8].self).pointee.append(contentsOf: bytes)
                return 0
            }, buffer, 0)
        }
        guard status == 0 else { throw LuaError(.usage, "cannot compile \(chunkName) to bytecode") }
        return LuaCompiledChunk(bytecode: bytecode, chunkName: chunkName)
    }

    /// Loads a chunk compiled by ``compile(_:chunkName:)`` into this state, as a function.
    public func load(_ compiled: LuaCompiledChunk, environment: LuaChunkEnvironment = .globals) throws(LuaError) -> LuaValue {
        let L = thread
        try ensureStack(L, 4)
        let status = compiled.bytecode.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                LuaState.luaChunkName(compiled.chunkName).withCString { name in
                    luaL_loadbufferx(L, chars.baseAddress, chars.count, name, "b")
                }
            }
        }
        try check(status, on: L)
        defer { cluashim_pop(L, 1) }
        if environment == .host { try check(cluashim_pusehostenvironment(L), on: L) }
        return try value(at: -1, on: L)
    }
}

extension LuaState {
    /// Gives the chunk `function` (just loaded, so its first upvalue is its `_ENV`) the globals that
    /// are the only upvalue of the Lua closure `holder` (`function() return globals end`): what
    /// `load(text, name, "t", globals)` gives, for a chunk loaded from the compiled cache. Shared by
    /// reference, as a table returned to Swift would be copied.
    public func setEnvironment(of function: LuaValue, toTheUpvalueOf holder: LuaValue) throws(LuaError) {
        let L = thread
        let top = lua_gettop(L)
        defer { lua_settop(L, top) }
        try ensureStack(L, 2)
        try push(function, on: L)
        try push(holder, on: L)
        // Both must be Lua closures with an upvalue, checked first: lua_upvaluejoin does not check.
        guard lua_iscfunction(L, -2) == 0, lua_iscfunction(L, -1) == 0, lua_type(L, -2) == LUA_TFUNCTION,
              lua_type(L, -1) == LUA_TFUNCTION, lua_getupvalue(L, -2, 1) != nil, lua_getupvalue(L, -2, 1) != nil
        else { throw LuaError(.usage, "the chunk has no _ENV to set") }
        lua_settop(L, -3)
        lua_upvaluejoin(L, -2, 1, -1, 1)
    }
}

/// The globals a chunk runs with.
public enum LuaChunkEnvironment: Sendable {
    /// The state's global table, which every script shares and may change.
    case globals
    /// The host's environment: the globals as the sandbox made them, before any script ran, which
    /// no script can reach or change (HostEnvironment.c). For the chunks the host and its tools own,
    /// so that an app that rebinds `coroutine` or `error` cannot change what they do. Its `_G` is
    /// the scripts' global table. A state without a sandbox has none: the chunk keeps the globals.
    case host
}
