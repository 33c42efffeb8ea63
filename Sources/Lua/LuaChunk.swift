#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CLua
import CLuaShim

extension LuaState {
    /// Compiles a text chunk into a function, without running it.
    ///
    /// `chunkName` is how errors name the chunk: `"app.lua"` gives `app.lua:12: message`. Names starting with
    /// `@` or `=` are passed to Lua unchanged. Binary chunks are refused, sandboxed or not: they bypass the
    /// compiler's checks and can crash the VM. A syntax error is thrown as ``LuaError/Kind/syntax``; check
    /// ``LuaError/isIncompleteInput`` to continue a REPL line.
    public func load(_ source: String, chunkName: String = "=(load)") throws(LuaError) -> LuaValue {
        try load(bytes: Array(source.utf8), chunkName: chunkName)
    }

    /// Compiles a text chunk given as bytes.
    public func load(bytes: [UInt8], chunkName: String) throws(LuaError) -> LuaValue {
        let L = thread
        try ensureStack(L, 4)
        // lua_load runs the parser in protected mode and reports errors by status: it never raises.
        let status = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                LuaState.luaChunkName(chunkName).withCString { name in
                    luaL_loadbufferx(L, chars.baseAddress, chars.count, name, "t")
                }
            }
        }
        try check(status, on: L)
        defer { cluashim_pop(L, 1) }
        return try value(at: -1, on: L)
    }

    /// Compiles a file. A first line starting with `#` (a shebang) is skipped, keeping line numbers.
    /// `chunkName` defaults to the path.
    public func load(contentsOfFile path: String, chunkName: String? = nil) throws(LuaError) -> LuaValue {
        try load(bytes: try Self.chunkBytes(contentsOfFile: path), chunkName: chunkName ?? path)
    }

    /// The text of a chunk file as Lua compiles it: a first line starting with `#` (a shebang)
    /// becomes empty, keeping line numbers.
    public static func chunkBytes(contentsOfFile path: String) throws(LuaError) -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw LuaError(.file, "cannot read \(path)")
        }
        var bytes = Array(data)
        if bytes.first == UInt8(ascii: "#") {
            let end = bytes.firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
            bytes.removeSubrange(bytes.startIndex..<end)
        }
        return bytes
    }

    /// Compiles and runs a chunk; returns what it returns.
    @discardableResult
    public func run(_ source: String, chunkName: String = "=(load)") throws(LuaError) -> [LuaValue] {
        try call(load(source, chunkName: chunkName))
    }

    /// Compiles and runs a file; returns what it returns.
    @discardableResult
    public func run(contentsOfFile path: String, chunkName: String? = nil) throws(LuaError) -> [LuaValue] {
        try call(load(contentsOfFile: path, chunkName: chunkName))
    }

    /// Lua shows `=name` as `name`, and a bare `name` as `[string "name"]`.
    static func luaChunkName(_ name: String) -> String {
        name.hasPrefix("=") || name.hasPrefix("@") ? name : "=" + name
    }
}
