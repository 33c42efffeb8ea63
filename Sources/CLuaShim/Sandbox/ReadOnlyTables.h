#ifndef PORTOLAN_CLUASHIM_READONLYTABLES_H
#define PORTOLAN_CLUASHIM_READONLYTABLES_H

// Private to the shim's C files: what the sandbox takes from ReadOnlyTables.c.

#include <lua.h>

/// Replaces global `name` (a table) by a read-only view of it; `what` names it in refusals ("the string
/// library"). Its package.loaded entry stays the table itself, where Lua looks up a function's name for
/// its errors; `require` hands out the view. Raises: call it only inside a protected call.
void replaceGlobalByView(lua_State *L, const char *name, const char *what);

/// Replaces the value on top, when it is a library shown by a view, by that view. Raises (memory).
void replaceByLibraryView(lua_State *L);

/// rawset(t, k, v) for scripts, wrapping the original (upvalue 1): a view is as read-only raw as it is
/// through its metatable.
int readOnlyRawSet(lua_State *L);

#endif
