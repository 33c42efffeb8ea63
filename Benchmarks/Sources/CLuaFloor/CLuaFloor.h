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
#endif
