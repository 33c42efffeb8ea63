// Read-only views of the tables every script shares: the standard libraries and the `portolan`
// module. Lua 5.4 has no frozen tables (Luau's safeenv does), so a global such as `string` is
// replaced by an empty table whose metatable reads through to the library and refuses writes:
// `string.upper = f` raises at the script's line instead of changing `("x"):upper()` for every
// other script in the state, the host's own Lua included.
#include "CLuaShim.h"
#include "../Protect.h"
#include "ReadOnlyTables.h"

#include <string.h>

// Light keys of the registry, unique by address.
/// view → the table it shows (weak keys): how rawset knows a view.
static const char VIEWS_KEY = 'v';
/// A boolean: while true, views write through (the host configuring the module, never a script).
static const char WRITABLE_KEY = 'w';

/// The longest key a refusal quotes; a longer one is cut, so a script cannot make the message huge.
static const size_t QUOTED_KEY_LIMIT = 60;

/// Pushes how a refusal names `key` after the table's name: `.upper`, cut when long, or `[number]`.
static void pushQuotedKey(lua_State *L, int key) {
    if (lua_type(L, key) != LUA_TSTRING) {
        lua_pushfstring(L, "[%s]", luaL_typename(L, key));
        return;
    }
    size_t length = 0;
    const char *text = lua_tolstring(L, key, &length);
    lua_pushliteral(L, ".");
    lua_pushlstring(L, text, length <= QUOTED_KEY_LIMIT ? length : QUOTED_KEY_LIMIT);
    if (length > QUOTED_KEY_LIMIT) lua_pushliteral(L, "...");
    lua_concat(L, length > QUOTED_KEY_LIMIT ? 3 : 2);
}

static int hostIsWriting(lua_State *L) {
    int writable = lua_rawgetp(L, LUA_REGISTRYINDEX, &WRITABLE_KEY) != LUA_TNIL && lua_toboolean(L, -1);
    lua_pop(L, 1);
    return writable;
}

/// __newindex(view, key, value); upvalues: the table shown, its name ("string"), what it is
/// ("the string library").
static int refuseWrite(lua_State *L) {
    if (hostIsWriting(L)) {
        lua_settop(L, 3);
        lua_rawset(L, lua_upvalueindex(1));
        return 0;
    }
    pushQuotedKey(L, 2);
    return luaL_error(L, "cannot set %s%s: %s is read-only", lua_tostring(L, lua_upvalueindex(2)),
                      lua_tostring(L, -1), lua_tostring(L, lua_upvalueindex(3)));
}

/// The iterator __pairs hands out: `next` over the shown table, which is its upvalue. The state the
/// iteration carries (the loop's invariant value, which `pairs` returns to the script) is the view
/// itself, never the shown table: a script that keeps it holds only the read-only view.
static int nextOfShown(lua_State *L) {
    lua_settop(L, 2);
    if (lua_next(L, lua_upvalueindex(1))) return 2;
    lua_pushnil(L);
    return 1;
}

/// __pairs(view): the shown table's own iteration, through a closure that alone holds the shown table.
static int pairsOfShown(lua_State *L) {
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_pushcclosure(L, nextOfShown, 1);
    lua_pushvalue(L, 1);
    lua_pushnil(L);
    return 3;
}

/// __len(view): the shown table's length.
static int lengthOfShown(lua_State *L) {
    lua_pushinteger(L, (lua_Integer)lua_rawlen(L, lua_upvalueindex(1)));
    return 1;
}

/// Pushes a view of the table at `shown` (an absolute index), named `name`, described as `what`.
static void pushView(lua_State *L, int shown, const char *name, const char *what) {
    lua_newtable(L);                                    // the view
    lua_createtable(L, 0, 5);                           // its metatable
    lua_pushvalue(L, shown);
    lua_setfield(L, -2, "__index");
    lua_pushvalue(L, shown);
    lua_pushstring(L, name);
    lua_pushstring(L, what);
    lua_pushcclosure(L, refuseWrite, 3);
    lua_setfield(L, -2, "__newindex");
    lua_pushvalue(L, shown);
    lua_pushcclosure(L, pairsOfShown, 1);
    lua_setfield(L, -2, "__pairs");
    lua_pushvalue(L, shown);
    lua_pushcclosure(L, lengthOfShown, 1);
    lua_setfield(L, -2, "__len");
    lua_pushliteral(L, "read-only");                    // what getmetatable answers; setmetatable refuses
    lua_setfield(L, -2, "__metatable");
    lua_setmetatable(L, -2);

    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &VIEWS_KEY) != LUA_TTABLE) {
        lua_pop(L, 1);
        lua_createtable(L, 0, 8);
        lua_createtable(L, 0, 1);
        lua_pushliteral(L, "k");
        lua_setfield(L, -2, "__mode");
        lua_setmetatable(L, -2);
        lua_pushvalue(L, -1);
        lua_rawsetp(L, LUA_REGISTRYINDEX, &VIEWS_KEY);
    }
    lua_pushvalue(L, -2);
    lua_pushvalue(L, shown);
    lua_rawset(L, -3);
    lua_pop(L, 1);
}

// A light key of the registry: each library shown by a view, to its view, for `require`.
static const char LIBRARY_VIEWS_KEY = 'l';

void replaceGlobalByView(lua_State *L, const char *name, const char *what) {
    int top = lua_gettop(L);
    if (lua_getglobal(L, name) != LUA_TTABLE) luaL_error(L, "global '%s' is not a table", name);
    int shown = top + 1;
    pushView(L, shown, name, what);
    lua_pushvalue(L, -1);
    lua_setglobal(L, name);
    // The loaded table keeps the library itself: Lua names a function in an error ("bad argument #1 to
    // 'table.concat'") by finding it there, when no call site names it (a pcall, a callback). Scripts never
    // reach that table; `require` hands them the view (`replaceByLibraryView`).
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &LIBRARY_VIEWS_KEY) != LUA_TTABLE) {
        lua_pop(L, 1);
        lua_createtable(L, 0, 8);
        lua_pushvalue(L, -1);
        lua_rawsetp(L, LUA_REGISTRYINDEX, &LIBRARY_VIEWS_KEY);
    }
    lua_pushvalue(L, shown);
    lua_pushvalue(L, shown + 1);
    lua_rawset(L, -3);
    lua_settop(L, top);
}

void replaceByLibraryView(lua_State *L) {
    if (lua_type(L, -1) != LUA_TTABLE) return;
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &LIBRARY_VIEWS_KEY) != LUA_TTABLE) {
        lua_pop(L, 1);
        return;
    }
    lua_pushvalue(L, -2);
    if (lua_rawget(L, -2) == LUA_TTABLE) {
        lua_replace(L, -3);
        lua_pop(L, 1);
    } else {
        lua_pop(L, 2);
    }
}

/// Arguments: light userdata name, light userdata description.
static int p_readonlyglobal(lua_State *L) {
    replaceGlobalByView(L, (const char *)lua_touserdata(L, 1), (const char *)lua_touserdata(L, 2));
    return 0;
}

int cluashim_preadonlyglobal(lua_State *L, const char *name, const char *description) {
    lua_pushlightuserdata(L, (void *)name);
    lua_pushlightuserdata(L, (void *)description);
    return protect(L, p_readonlyglobal, 2, 0);
}

static int p_setviewswritable(lua_State *L) {
    lua_pushboolean(L, lua_toboolean(L, 1));
    lua_rawsetp(L, LUA_REGISTRYINDEX, &WRITABLE_KEY);
    return 0;
}

int cluashim_psetviewswritable(lua_State *L, int writable) {
    lua_pushboolean(L, writable);
    return protect(L, p_setviewswritable, 1, 0);
}

int readOnlyRawSet(lua_State *L) {
    if (lua_type(L, 1) == LUA_TTABLE && !hostIsWriting(L)) {
        int isView = lua_rawgetp(L, LUA_REGISTRYINDEX, &VIEWS_KEY) == LUA_TTABLE;
        if (isView) {
            lua_pushvalue(L, 1);
            isView = lua_rawget(L, -2) != LUA_TNIL;
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
        if (isView) return luaL_error(L, "rawset: this table is read-only");
    }
    // liblua5.4's own, in this frame: its argument errors name `rawset` and the script's line.
    return lua_tocfunction(L, lua_upvalueindex(1))(L);
}

/// shown(t): the table a read-only view shows, or `t` itself. Raw reads only, so a tool that lists
/// keys (the REPL's completion) can see through the views without running anyone's metamethods.
static int shownTable(lua_State *L) {
    lua_settop(L, 1);
    if (lua_type(L, 1) == LUA_TTABLE && lua_rawgetp(L, LUA_REGISTRYINDEX, &VIEWS_KEY) == LUA_TTABLE) {
        lua_pushvalue(L, 1);
        if (lua_rawget(L, -2) == LUA_TTABLE) return 1;
    }
    lua_settop(L, 1);
    return 1;
}

static int p_pushshowntable(lua_State *L) {
    lua_pushcfunction(L, shownTable);
    return 1;
}

int cluashim_ppushshowntable(lua_State *L) { return protect(L, p_pushshowntable, 0, 1); }

/// metatable_of(v): v's metatable, even when a `__metatable` field hides it from `getmetatable`. For the host's
/// own Lua, which locks the metatables it hands scripts and still needs to know its own objects by them.
static int rawMetatable(lua_State *L) {
    luaL_checkany(L, 1);
    if (!lua_getmetatable(L, 1)) lua_pushnil(L);
    return 1;
}

static int p_pushrawmetatable(lua_State *L) {
    lua_pushcfunction(L, rawMetatable);
    return 1;
}

int cluashim_ppushrawmetatable(lua_State *L) { return protect(L, p_pushrawmetatable, 0, 1); }

/// clear_metatable(t): t with no metatable, even one a `__metatable` field locks against
/// `setmetatable`. For the host's own Lua, which puts back a table a script may have dressed.
static int clearMetatable(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_pushnil(L);
    lua_setmetatable(L, 1);
    return 0;
}

static int p_pushclearmetatable(lua_State *L) {
    lua_pushcfunction(L, clearMetatable);
    return 1;
}

int cluashim_ppushclearmetatable(lua_State *L) { return protect(L, p_pushclearmetatable, 0, 1); }
