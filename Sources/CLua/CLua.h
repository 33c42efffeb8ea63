#ifndef PORTOLAN_CLUA_H
#define PORTOLAN_CLUA_H
#include <lua.h>
#include <lualib.h>
#include <lauxlib.h>
#endif
