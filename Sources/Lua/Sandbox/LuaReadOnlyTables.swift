import CLua
import CLuaShim

// Read-only views of shared tables (ReadOnlyTables.c): a sandboxed state's libraries are views from
// the start; the host makes its own module one once it is built.

extension LuaState {
    /// Replaces global `name`, a table, and what `require(name)` returns by a read-only view of it:
    /// `name.key = v` and `rawset` raise `cannot set name.key: <description> is read-only`, while
    /// reads, `pairs` and `#` see the table.
    public func makeReadOnly(global name: String, description: String) throws(LuaError) {
        let L = thread
        try ensureStack(L, 8)
        let status = name.withCString { name in description.withCString { cluashim_preadonlyglobal(L, name, $0) } }
        try check(status, on: L)
    }

    /// Runs `body` with every read-only view writing through: the host's own set-up of a shared
    /// table (a tool wrapping a module function), never a script's doing.
    public func withReadOnlyTablesWritable<T, E: Error>(_ body: () throws(E) -> T) throws -> T {
        let L = thread
        try ensureStack(L, 2)
        try check(cluashim_psetviewswritable(L, 1), on: L)
        defer { _ = cluashim_psetviewswritable(L, 0) }
        return try body()
    }

    /// `shown(t)` as a Lua function: the table a read-only view shows, or `t` itself. For tools that
    /// list a table's keys raw (completion), which would see an empty view.
    public func shownTableFunction() throws(LuaError) -> LuaValue {
        try shimFunction(cluashim_ppushshowntable)
    }

    /// `metatable_of(v)` as a Lua function: v's metatable even when a `__metatable` field hides it.
    /// For the host's own Lua, which locks every metatable it hands scripts (so that no script can
    /// rewrite how the host's objects print or behave) and still knows its objects by them.
    public func rawMetatableFunction() throws(LuaError) -> LuaValue {
        try shimFunction(cluashim_ppushrawmetatable)
    }

    /// `clear_metatable(t)` as a Lua function: t with no metatable, even one a `__metatable` field
    /// locks. For the host's own Lua, which puts back tables that scripts share and may dress.
    public func clearMetatableFunction() throws(LuaError) -> LuaValue {
        try shimFunction(cluashim_ppushclearmetatable)
    }

    /// The C function that `push` (a protected shim) pushes, as a value.
    private func shimFunction(_ push: (OpaquePointer?) -> CInt) throws(LuaError) -> LuaValue {
        let L = thread
        try ensureStack(L, 4)
        try check(push(L), on: L)
        defer { cluashim_pop(L, 1) }
        return try value(at: -1, on: L)
    }
}
