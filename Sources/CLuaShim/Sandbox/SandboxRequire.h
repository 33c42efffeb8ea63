#ifndef PORTOLAN_SANDBOXREQUIRE_H
#define PORTOLAN_SANDBOXREQUIRE_H

#include <lua.h>

/// The sandbox's `require` (SandboxRequire.c), which Sandbox.c installs as the global.
int sandboxRequire(lua_State *L);

#endif
