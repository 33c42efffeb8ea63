#ifndef PORTOLAN_CLUASHIM_CHARGED_LIBRARY_H
#define PORTOLAN_CLUASHIM_CHARGED_LIBRARY_H

// Private to the shim's C files: the sandbox's charge on library calls whose work grows with their arguments.

#include <lua.h>

/// Replaces those functions of the string, table and utf8 libraries, `collectgarbage` and `load`, by wrappers
/// that charge their work to the instruction budget first (ChargedLibrary.c). Call once the libraries are open
/// and before anything else wraps them. Raises only for memory.
void chargeLibraryCalls(lua_State *L);

#endif
