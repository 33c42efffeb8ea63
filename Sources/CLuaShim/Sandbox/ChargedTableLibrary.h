#ifndef PORTOLAN_CLUASHIM_CHARGED_TABLE_LIBRARY_H
#define PORTOLAN_CLUASHIM_CHARGED_TABLE_LIBRARY_H

// Private to the shim's C files: the table library's functions, charged as their loops run
// (ChargedTableLibrary.c). Each is called in the frame of the wrapper Lua called, so that its errors name
// the function and the script's line; `original` is liblua5.4's function of the same name.

#include <lua.h>

int cluashim_chargedinsert(lua_State *L, lua_CFunction original);
int cluashim_chargedremove(lua_State *L);
int cluashim_chargedmove(lua_State *L);
int cluashim_chargedconcat(lua_State *L);
int cluashim_chargedunpack(lua_State *L, lua_CFunction original);
int cluashim_chargedsort(lua_State *L, lua_CFunction original);

#endif
