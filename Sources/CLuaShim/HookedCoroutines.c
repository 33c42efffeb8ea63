#include "HookedCoroutines.h"
#include "CLuaShim.h"

#include <lauxlib.h>
#include <lualib.h>

/// coroutine.create, with the same checks and errors as the library's, and the hook on the new thread.
static int hookedCreate(lua_State *L) {
    luaL_checktype(L, 1, LUA_TFUNCTION);
    lua_State *thread = lua_newthread(L);
    cluashim_sethook(thread);
    lua_pushvalue(L, 1);
    lua_xmove(L, thread, 1);
    return 1;
}

/// coroutine.wrap: the library's own function (upvalue 1) makes the wrapper, whose first upvalue is its
/// thread; that thread is hooked before the script gets the wrapper.
static int hookedWrap(lua_State *L) {
    luaL_checktype(L, 1, LUA_TFUNCTION);
    lua_settop(L, 1);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, 1, 1);
    lua_State *thread = NULL;
    if (lua_getupvalue(L, -1, 1) != NULL) {
        thread = lua_tothread(L, -1);
        lua_pop(L, 1);
    }
    // Never hand out a coroutine the hook may miss.
    if (thread == NULL) return luaL_error(L, "coroutine.wrap made no thread the host can hook");
    cluashim_sethook(thread);
    return 1;
}

void hookedcoroutines_install(lua_State *L) {
    if (lua_getglobal(L, LUA_COLIBNAME) != LUA_TTABLE) {
        lua_pop(L, 1);
        return;
    }
    lua_pushcfunction(L, hookedCreate);
    lua_setfield(L, -2, "create");
    lua_getfield(L, -1, "wrap");
    lua_pushcclosure(L, hookedWrap, 1);
    lua_setfield(L, -2, "wrap");
    lua_pop(L, 1);
}
