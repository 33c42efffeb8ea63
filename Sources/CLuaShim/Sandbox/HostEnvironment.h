#ifndef PORTOLAN_CLUASHIM_HOST_ENVIRONMENT_H
#define PORTOLAN_CLUASHIM_HOST_ENVIRONMENT_H

// Private to the shim's C files: how the sandbox captures the host's environment (HostEnvironment.c).

#include <lua.h>

/// Copies the global table, as it is now, into the registry as the host's environment. Raises only for memory.
void captureHostEnvironment(lua_State *L);

#endif
