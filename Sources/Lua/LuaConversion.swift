import CLua
import CLuaShim

// Moving values between the Lua stack and Swift.
//
// Reading never raises: lua_type, lua_toboolean, lua_tointegerx, lua_tonumberx, lua_topointer and lua_next do
// not allocate, and strings are read only when they already are strings (lua_tolstring on a number would
// convert it in place, allocating). Anything that allocates (strings, tables, rawset, references) goes
// through a `cluashim_p…` function, under lua_pcall; a call's arguments all go through one
// (`cluashim_ppushencoded`).

extension LuaState {
    /// Pushes `value` onto `L`. On failure nothing is left pushed.
    func push(_ value: LuaValue, on L: OpaquePointer) throws(LuaError) {
        guard value.pushesWithoutAllocating else { return try push([value], on: L) }
        try ensureStack(L, 1)
        try pushPlain(value, on: L)
    }

    /// Pushes each value; on failure nothing is left pushed. Values that allocate (strings,
    /// tables) are pushed all together under one protected call (``LuaValueEncoding``).
    func push(_ values: [LuaValue], on L: OpaquePointer) throws(LuaError) {
        let top = lua_gettop(L)
        do {
            try ensureStack(L, values.count + 4)
            if values.allSatisfy(\.pushesWithoutAllocating) {
                for value in values { try pushPlain(value, on: L) }
                return
            }
            try push(encoding: LuaValueEncoding(values, state: self), count: values.count, on: L)
        } catch {
            lua_settop(L, top)
            throw error
        }
    }

    /// Pushes encoded values under one protected call; on failure nothing is left pushed.
    func push(encoding: LuaValueEncoding, count: Int, on L: OpaquePointer) throws(LuaError) {
        try ensureStack(L, count + 4)
        // Outside any call, first release what Swift dropped: a failed coroutine's stack may be
        // all that keeps a memory bomb's garbage alive, and this push allocates.
        if callDepth == 0 { drainUnreferences() }
        let status = encoding.bytes.withUnsafeBufferPointer { buffer in
            cluashim_ppushencoded(L, buffer.baseAddress, buffer.count, CInt(encoding.count))
        }
        try check(status, on: L)
    }

    /// Pushes a value that allocates nothing in Lua (``LuaValue/pushesWithoutAllocating``).
    private func pushPlain(_ value: LuaValue, on L: OpaquePointer) throws(LuaError) {
        switch value {
        case .nil: lua_pushnil(L)
        case .boolean(let flag): lua_pushboolean(L, flag ? 1 : 0)
        case .integer(let integer): lua_pushinteger(L, lua_Integer(integer))
        case .number(let number): lua_pushnumber(L, number)
        case .function(let reference), .userdata(let reference), .thread(let reference):
            try pushReference(reference, on: L)
        case .string, .bytes, .table:
            try push([value], on: L)   // not reached: `push` encodes these
        }
    }

    func pushReference(_ reference: LuaReference, on L: OpaquePointer) throws(LuaError) {
        try checkOwns(reference)
        lua_rawgeti(L, cluashim_registryindex(), lua_Integer(reference.reference))
    }

    /// The value at `index` of `L`, copied into Swift. The stack is left as it was.
    func value(at index: CInt, on L: OpaquePointer) throws(LuaError) -> LuaValue {
        var ancestors: Set<UnsafeRawPointer> = []
        return try value(at: lua_absindex(L, index), on: L, depth: 0, ancestors: &ancestors)
    }

    /// The values from `first` to the top of `L`.
    func values(from first: CInt, on L: OpaquePointer) throws(LuaError) -> [LuaValue] {
        let top = lua_gettop(L)
        guard first <= top else { return [] }
        var values: [LuaValue] = []
        values.reserveCapacity(Int(top - first + 1))
        for index in first...top { values.append(try value(at: index, on: L)) }
        return values
    }

    private func value(
        at index: CInt, on L: OpaquePointer, depth: Int, ancestors: inout Set<UnsafeRawPointer>
    ) throws(LuaError) -> LuaValue {
        switch lua_type(L, index) {
        case LUA_TBOOLEAN:
            return .boolean(lua_toboolean(L, index) != 0)
        case LUA_TNUMBER:
            if lua_isinteger(L, index) != 0 { return .integer(Int64(cluashim_tointeger(L, index))) }
            return .number(cluashim_tonumber(L, index))
        case LUA_TSTRING:
            var length = 0
            guard let pointer = cluashim_tolstring(L, index, &length) else { return .string("") }
            return LuaValue(bytes: UnsafeRawBufferPointer(start: pointer, count: length))
        case LUA_TTABLE:
            return try table(at: index, on: L, depth: depth, ancestors: &ancestors)
        case LUA_TFUNCTION:
            return .function(try reference(at: index, on: L))
        case LUA_TUSERDATA, LUA_TLIGHTUSERDATA:
            return .userdata(try reference(at: index, on: L))
        case LUA_TTHREAD:
            return .thread(try reference(at: index, on: L))
        default:
            return .nil
        }
    }

    /// Copies a table with lua_next (raw: no __index or __pairs runs). Cycles and excessive depth are errors,
    /// not infinite recursion; a table reached twice without a cycle is simply copied twice.
    private func table(
        at index: CInt, on L: OpaquePointer, depth: Int, ancestors: inout Set<UnsafeRawPointer>
    ) throws(LuaError) -> LuaValue {
        guard depth < maximumTableDepth else {
            throw LuaError(.conversion, "table nesting deeper than \(maximumTableDepth)")
        }
        guard let identity = lua_topointer(L, index), ancestors.insert(identity).inserted else {
            throw LuaError(.conversion, "cannot convert a cyclic table")
        }
        defer { ancestors.remove(identity) }
        try ensureStack(L, 4)
        let top = lua_gettop(L)
        defer { lua_settop(L, top) }

        var table: [LuaValue: LuaValue] = [:]
        lua_pushnil(L)
        while lua_next(L, index) != 0 {
            let keyIndex = lua_gettop(L) - 1
            let key = try value(at: keyIndex, on: L, depth: depth + 1, ancestors: &ancestors)
            let value = try value(at: keyIndex + 1, on: L, depth: depth + 1, ancestors: &ancestors)
            table[key] = value   // assignment, not uniqueKeysWithValues: distinct Lua keys may be equal Strings
            cluashim_pop(L, 1)
        }
        return .table(table)
    }

    /// A registry reference to the value at `index`.
    func reference(at index: CInt, on L: OpaquePointer) throws(LuaError) -> LuaReference {
        try ensureStack(L, 4)
        let identity = lua_topointer(L, index)
        lua_pushvalue(L, index)
        var reference: CInt = 0
        try check(cluashim_pref(L, &reference), on: L)
        return LuaReference(state: self, reference: reference, identity: identity)
    }
}
