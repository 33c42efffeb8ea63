#ifndef PORTOLAN_CLUASHIM_CALLERERRORS_H
#define PORTOLAN_CLUASHIM_CALLERERRORS_H

// Private to the shim's C files (CallerErrors.c): where an error for a library's caller happened.

#include <lua.h>

/// Pushes "chunk:line: " of the first frame from `level` up that has a line (a C function such as
/// pcall has none) and is not the library's (the chunk cluashim_psetlibrarychunk named, or a part of
/// it); "" when there is none. May raise (memory).
void cluashim_whereoutsidelibrary(lua_State *L, int level);

#endif
