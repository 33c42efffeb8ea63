// The libraries a state opens, and the sandbox: which of them a script gets, the wrappers that close the
// doors left in them (binary chunks, collector tuning, finalizers, unbounded pattern matching), and the
// controlled `require` (SandboxRequire.c).
#include "BoundedStringSearch.h"
#include "ChargedLibrary.h"
#include "CLuaShim.h"
#include "HostEnvironment.h"
#include "../HookedCoroutines.h"
#include "../Protect.h"
#include "ReadOnlyTables.h"
#include "SandboxRequire.h"

static int p_openlibs(lua_State *L) {
    luaL_openlibs(L);
    hookedcoroutines_install(L);
    return 0;
}

int cluashim_popenlibs(lua_State *L) { return protect(L, p_openlibs, 0, 0); }

/// The refusal of a binary chunk, in the words Lua's own `load` uses for a chunk its mode excludes: the
/// sandbox's mode is "t".
static const char *const BINARY_REFUSAL = "attempt to load a binary chunk (mode is 't')";

/// Whether the value at `index` is a string that starts a binary chunk (Lua's own test: the first byte).
static int startsBinaryChunk(lua_State *L, int index) {
    return lua_type(L, index) == LUA_TSTRING && lua_tostring(L, index)[0] == LUA_SIGNATURE[0];
}

/// The reader Lua's `load` gets in place of a script's reader (upvalue 1): each piece as the script's
/// reader gave it, but a first piece that starts a binary chunk is refused. Upvalue 2 says whether the
/// first piece was seen. An error here ends the load, which returns it, as Lua's refusal does.
static int binaryRefusingReader(lua_State *L) {
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_call(L, 0, 1);
    if (!lua_toboolean(L, lua_upvalueindex(2))) {
        lua_pushboolean(L, 1);
        lua_replace(L, lua_upvalueindex(2));
        if (startsBinaryChunk(L, -1)) {
            lua_pushstring(L, BINARY_REFUSAL);
            return lua_error(L);
        }
    }
    return 1;
}

/// `load` refusing binary chunks, which bypass the compiler's checks and can crash the VM, and otherwise
/// Lua's own with the script's arguments, its mode included: `load(text, name, "b")` is refused in Lua's
/// words ("attempt to load a text chunk (mode is 'b')").
static int sandboxLoad(lua_State *L) {
    int given = lua_gettop(L);
    if (given > 0) {   // with no chunk at all, Lua's own load refuses the call as it came
        const char *mode = luaL_optstring(L, 3, "bt");
        if (lua_type(L, 1) == LUA_TFUNCTION) {
            lua_pushvalue(L, 1);
            lua_pushboolean(L, 0);
            lua_pushcclosure(L, binaryRefusingReader, 2);
            lua_replace(L, 1);
        } else if (startsBinaryChunk(L, 1)) {
            mode = "t";
        }
        if (given < 3) lua_settop(L, 2);   // keeps `env` absent (an explicit nil would mean "no _ENV")
        lua_pushstring(L, mode);
        if (given >= 3) lua_replace(L, 3);
    }
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
}

/// The message handler xpcall gets instead of the script's: the script's own, unless the error is a limit the
/// hook raised. A hook raises from inside itself, where Lua has switched hooks off, and Lua runs the message
/// handler right there, before unwinding: the script's handler would run with no budget, no interrupt and no
/// deadline (`xpcall(error, function() while true do end end)` ran for ever). A limit's error goes on as is.
static int guardedMessageHandler(lua_State *L) {
    if (cluashim_tripped(L) != CLUASHIM_TRIP_NONE) return 1;
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, 1);
    return 1;
}

/// xpcall(f, handler, ...) with the handler guarded; then liblua5.4's own xpcall, in this frame.
static int sandboxXpcall(lua_State *L) {
    luaL_checktype(L, 2, LUA_TFUNCTION);
    lua_pushvalue(L, 2);
    lua_pushcclosure(L, guardedMessageHandler, 1);
    lua_replace(L, 2);
    return lua_tocfunction(L, lua_upvalueindex(1))(L);
}

/// Options a script may use. "stop", "restart", "incremental", "generational" and "setpause" are the host's:
/// a script that stops the collector or retunes it can exhaust memory or stall every other call.
static int sandboxCollectGarbage(lua_State *L) {
    static const char *const allowed[] = {"collect", "count", "step", "isrunning", NULL};
    luaL_checkoption(L, 1, "collect", allowed);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
}

/// Finalizers run with hooks disabled (lgc.c, GCTM), so a __gc metamethod would escape the instruction budget
/// and the interrupt. Lua only honours __gc present when the metatable is set, so checking here is enough.
static int sandboxSetMetatable(lua_State *L) {
    if (lua_type(L, 2) == LUA_TTABLE) {
        lua_pushliteral(L, "__gc");
        int hasGC = lua_rawget(L, 2) != LUA_TNIL;
        lua_pop(L, 1);
        if (hasGC) return luaL_error(L, "__gc metamethods are not allowed in the sandbox");
    }
    // liblua5.4's own, in this frame: its argument errors name `setmetatable` and the script's line.
    return lua_tocfunction(L, lua_upvalueindex(1))(L);
}

/// Replaces global `name` with a C closure whose upvalue is the original.
static void wrapGlobal(lua_State *L, const char *name, lua_CFunction wrapper) {
    lua_getfield(L, -1, name);
    lua_pushcclosure(L, wrapper, 1);
    lua_setfield(L, -2, name);
}

static int p_opensandbox(lua_State *L) {
    static const luaL_Reg libraries[] = {
        {LUA_GNAME, luaopen_base},         {LUA_STRLIBNAME, luaopen_string}, {LUA_TABLIBNAME, luaopen_table},
        {LUA_MATHLIBNAME, luaopen_math},   {LUA_UTF8LIBNAME, luaopen_utf8},  {LUA_COLIBNAME, luaopen_coroutine},
        {NULL, NULL},
    };
    for (const luaL_Reg *lib = libraries; lib->func != NULL; lib++) {
        luaL_requiref(L, lib->name, lib->func, 1);
        lua_pop(L, 1);
    }

    chargeLibraryCalls(L);   // first: the wrappers below call these as scripts do
    hookedcoroutines_install(L);
    hookedcoroutines_guardhostyields(L);

    lua_pushglobaltable(L);
    static const char *const removed[] = {"dofile", "loadfile", "loadstring", NULL};
    for (const char *const *name = removed; *name != NULL; name++) {
        lua_pushnil(L);
        lua_setfield(L, -2, *name);
    }
    wrapGlobal(L, "load", sandboxLoad);
    wrapGlobal(L, "collectgarbage", sandboxCollectGarbage);
    wrapGlobal(L, "setmetatable", sandboxSetMetatable);
    wrapGlobal(L, "xpcall", sandboxXpcall);
    wrapGlobal(L, "rawset", readOnlyRawSet);
    lua_pushcfunction(L, sandboxRequire);
    lua_setfield(L, -2, "require");

    lua_getfield(L, -1, LUA_STRLIBNAME);
    lua_pushnil(L);
    lua_setfield(L, -2, "dump");   // dumps bytecode, the input binary `load` would need
    // liblua5.4's matcher runs in C, unseen by the count hook: a pattern could run for ever. The string
    // metatable's __index is this same table, so ("x"):find gets the bounded one too.
    boundedsearch_install(L, -1);
    lua_pop(L, 2);

    // getmetatable("") returns this field instead of the metatable, so scripts cannot reach __index.
    lua_pushliteral(L, "");
    if (lua_getmetatable(L, -1)) {
        lua_pushboolean(L, 0);
        lua_setfield(L, -2, "__metatable");
        lua_pop(L, 1);
    }
    lua_pop(L, 1);

    // Last, once the wrappers above are in: the libraries every script shares become read-only.
    static const char *const shared[][2] = {
        {LUA_STRLIBNAME, "the string library"}, {LUA_TABLIBNAME, "the table library"},
        {LUA_MATHLIBNAME, "the math library"},  {LUA_UTF8LIBNAME, "the utf8 library"},
        {LUA_COLIBNAME, "the coroutine library"},
    };
    for (size_t i = 0; i < sizeof shared / sizeof shared[0]; i++) replaceGlobalByView(L, shared[i][0], shared[i][1]);
    captureHostEnvironment(L);   // last: the host's chunks see these globals whatever scripts do later
    return 0;
}

int cluashim_popensandbox(lua_State *L) { return protect(L, p_opensandbox, 0, 0); }

