// The shim's small protected operations: each runs one raising Lua API call (allocating a string or a table,
// a reference, a global, a traceback, a collection) under lua_pcall (Protect.h), so that Swift never calls a
// function that may longjmp.
#include "CLuaShim.h"
#include "HookedCoroutines.h"
#include "Protect.h"

static int p_pushlstring(lua_State *L) {
    lua_pushlstring(L, (const char *)lua_touserdata(L, 1), (size_t)lua_tointeger(L, 2));
    return 1;
}

int cluashim_ppushlstring(lua_State *L, const char *s, size_t len) {
    lua_pushlightuserdata(L, (void *)s);
    lua_pushinteger(L, (lua_Integer)len);
    return protect(L, p_pushlstring, 2, 1);
}

static int p_createtable(lua_State *L) {
    lua_createtable(L, (int)lua_tointeger(L, 1), (int)lua_tointeger(L, 2));
    return 1;
}

int cluashim_pcreatetable(lua_State *L, int narr, int nrec) {
    lua_pushinteger(L, narr);
    lua_pushinteger(L, nrec);
    return protect(L, p_createtable, 2, 1);
}

static int p_rawset(lua_State *L) {
    lua_rawset(L, 1);   // raises on nil/NaN keys and when the table cannot grow
    return 0;
}

int cluashim_prawset(lua_State *L, int idx) {
    idx = lua_absindex(L, idx);
    lua_pushvalue(L, idx);
    lua_insert(L, -3);   // t k v
    return protect(L, p_rawset, 3, 0);
}

static int p_ref(lua_State *L) {
    lua_pushinteger(L, luaL_ref(L, LUA_REGISTRYINDEX));   // the registry may need to grow
    return 1;
}

int cluashim_pref(lua_State *L, int *ref) {
    int status = protect(L, p_ref, 1, 1);
    if (status == LUA_OK) {
        *ref = (int)lua_tointeger(L, -1);
        lua_pop(L, 1);
    }
    return status;
}

static int p_unref(lua_State *L) {
    luaL_unref(L, LUA_REGISTRYINDEX, (int)lua_tointeger(L, 1));
    return 0;
}

int cluashim_punref(lua_State *L, int ref) {
    lua_pushinteger(L, ref);
    return protect(L, p_unref, 1, 0);
}

/// A thread for the host to drive (`LuaCoroutine`): marked as the host's, so that no script resumes it
/// while the host holds it suspended (HookedCoroutines.c).
static int p_newthread(lua_State *L) {
    lua_newthread(L);   // inherits the hook of L (Lua 5.4 copies it); Swift installs it again anyway
    hookedcoroutines_markhostthread(L, -1);
    return 1;
}

int cluashim_pnewthread(lua_State *L) { return protect(L, p_newthread, 0, 1); }

static int p_tostring(lua_State *L) {
    luaL_tolstring(L, 1, NULL);
    return 1;
}

int cluashim_ptostring(lua_State *L, int idx) {
    lua_pushvalue(L, idx);
    return protect(L, p_tostring, 1, 1);
}

static int p_traceback(lua_State *L) {
    luaL_traceback(L, lua_tothread(L, 1), NULL, (int)lua_tointeger(L, 2));
    return 1;
}

int cluashim_ptraceback(lua_State *L, int threadIndex, int level) {
    lua_pushvalue(L, threadIndex);
    lua_pushinteger(L, level);
    return protect(L, p_traceback, 2, 1);
}

static int p_getglobal(lua_State *L) {
    lua_getglobal(L, (const char *)lua_touserdata(L, 1));
    return 1;
}

int cluashim_pgetglobal(lua_State *L, const char *name) {
    lua_pushcfunction(L, p_getglobal);
    lua_pushlightuserdata(L, (void *)name);
    return cluashim_pcalltraceback(L, 1, 1);
}

static int p_setglobal(lua_State *L) {
    lua_settop(L, 2);
    lua_setglobal(L, (const char *)lua_touserdata(L, 1));
    return 0;
}

int cluashim_psetglobal(lua_State *L, const char *name) {
    lua_pushcfunction(L, p_setglobal);
    lua_pushlightuserdata(L, (void *)name);
    lua_rotate(L, -3, 2);   // f name v
    return cluashim_pcalltraceback(L, 2, 0);
}

static int p_gc(lua_State *L) {
    lua_gc(L, (int)lua_tointeger(L, 1), 0);
    return 0;
}

int cluashim_pgc(lua_State *L, int what) {
    lua_pushinteger(L, what);
    return protect(L, p_gc, 1, 0);
}
