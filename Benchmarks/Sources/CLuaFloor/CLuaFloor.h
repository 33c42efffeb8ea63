#ifndef PORTOLAN_CLUAFLOOR_H
#define PORTOLAN_CLUAFLOOR_H
#include <lua.h>
#include <lualib.h>
#include <lauxlib.h>

/// The floor of the host benchmark: one bare protected call of the function at the top of the stack.
static inline int cluafloor_call_top(lua_State *L) {
    lua_pushvalue(L, -1);
    return lua_pcall(L, 0, 0, 0);
}

static void cluafloor_emptyhook(lua_State *L, lua_Debug *ar) {
    (void)L;
    (void)ar;
}

/// A count hook that does nothing: what a state pays per instruction for carrying one (Lua 5.4 traps every
/// instruction into luaG_traceexec while any count hook is set), the cost every handler call had before the
/// host's hook was armed by a watchdog.
static inline void cluafloor_sethook(lua_State *L, int count) { lua_sethook(L, cluafloor_emptyhook, LUA_MASKCOUNT, count); }
#endif
