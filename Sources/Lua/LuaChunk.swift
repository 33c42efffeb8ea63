#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
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
        // Threads and values Swift let go of are released first, so that the parser's allocations can
        // reclaim them: a handler that died out of memory leaves its whole stack until then.
        if callDepth == 0 { drainUnreferences() }
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

    /// The largest chunk file read: far more than any script, far less than a state's memory, so a
    /// script cannot make the host hold a huge file (`portolan.load` of a disk image).
    public static let maximumChunkFileSize = Int(CONFINEDFILE_MAXIMUM_SIZE)

    /// The text of a chunk file the host was given, as Lua compiles it: a first line starting with `#`
    /// (a shebang) becomes empty, keeping line numbers. The folders on the path are the host's,
    /// taken as named, but the file itself is opened without following a link and without blocking
    /// (`confinedfile_readnamed`), and must be a regular file with one name, of at most
    /// `maximumChunkFileSize`: an app file a pull request turned into a link to `.env`, or a FIFO,
    /// is refused, never read or quoted. A file a script names is read with
    /// ``chunkBytes(ofFile:beneath:way:)``.
    public static func chunkBytes(contentsOfFile path: String) throws(LuaError) -> [UInt8] {
        var text = confinedfile_text()
        let outcome = path.withCString { confinedfile_readnamed($0, &text) }
        defer { free(text.bytes) }
        guard outcome == CInt(CONFINEDFILE_OK) else {
            let reason = outcome == CInt(CONFINEDFILE_UNREADABLE) ? "" : ": " + String(cString: confinedfile_reason(outcome))
            throw LuaError(.file, "cannot read \(path)\(reason)")
        }
        return ScriptFile.bytes(of: text)
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
