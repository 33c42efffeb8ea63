#ifndef PORTOLAN_CLUASHIM_PROTECT_H
#define PORTOLAN_CLUASHIM_PROTECT_H

// Private to the shim's C files: the one way a `cluashim_p…` function runs its raising work.

#include <lua.h>

/// Runs `f` under lua_pcall on the `nargs` values on top. lua_pcall itself never raises, and pushing a C
/// function without upvalues allocates nothing, so nothing here can longjmp into the Swift caller.
static inline int protect(lua_State *L, lua_CFunction f, int nargs, int nresults) {
    lua_pushcfunction(L, f);
    lua_insert(L, -(nargs + 1));
    return lua_pcall(L, nargs, nresults, 0);
}

#endif
