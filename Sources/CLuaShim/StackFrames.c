// Where a suspended coroutine stands: its Lua frames, for messages such as "cut while waiting at
// s.lua:3". lua_getstack and lua_getinfo("Sl") only read the stack: they neither allocate nor raise.
#include "CLuaShim.h"
#include <stdio.h>

int cluashim_frame(lua_State *L, int level, char *source, size_t size, int *line) {
    lua_Debug ar;
    if (lua_getstack(L, level, &ar) == 0) return -1;   // no such level
    if (lua_getinfo(L, "Sl", &ar) == 0) return -1;
    if (ar.currentline < 0) return 0;                  // a C function, or no line information
    snprintf(source, size, "%s", ar.short_src);
    *line = ar.currentline;
    return 1;
}
