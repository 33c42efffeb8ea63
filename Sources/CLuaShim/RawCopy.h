#ifndef CLUASHIM_RAWCOPY_H
#define CLUASHIM_RAWCOPY_H

// Private to the shim's C files.

#include <lua.h>

/// Pushes a new table holding the fields of the table at `index`, read raw (no metamethod runs). May raise
/// (memory): call it only inside a protected call.
static inline void pushRawCopy(lua_State *L, int index) {
    index = lua_absindex(L, index);
    lua_newtable(L);
    lua_pushnil(L);
    while (lua_next(L, index) != 0) {
        lua_pushvalue(L, -2);
        lua_insert(L, -2);
        lua_rawset(L, -4);
    }
}

#endif
