// The host's environment: the globals as the sandbox made them, captured before any script runs, for the
// chunks the host and its tools own (the `portolan` module, the printer, the expect library). A script can
// rebind any global (`coroutine = fake`, `error = function() end`), and a host chunk that read its globals at
// call time would then run the script's functions: an app could fake every route's result or every
// scenario's verdict. A host chunk's `_ENV` is this table instead, which no script can reach: it is only an
// upvalue of the host's functions, and scripts have no `debug` library to read upvalues with. Its `_G` is
// the scripts' global table, for the host's deliberate writes there (the module's `print`).
#include "CLuaShim.h"
#include "HostEnvironment.h"
#include "../HookedCoroutines.h"
#include "../Protect.h"
#include "../RawCopy.h"

// A light key of the registry, unique by address.
static const char HOST_ENVIRONMENT_KEY = 'e';

void captureHostEnvironment(lua_State *L) {
    lua_pushglobaltable(L);
    pushRawCopy(L, -1);   // the global table has no metatable: a raw walk sees what a script sees
    // The coroutine library unguarded: the host's yields from a main flow or a handler are its requests.
    hookedcoroutines_pushhostlibrary(L);
    lua_setfield(L, -2, LUA_COLIBNAME);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &HOST_ENVIRONMENT_KEY);
    lua_pop(L, 1);
}

/// The function on top gets the host's environment as its `_ENV` (its first upvalue, as for every main
/// chunk). A state without a sandbox has no host environment: its chunks keep the globals.
static int p_usehostenvironment(lua_State *L) {
    luaL_checktype(L, 1, LUA_TFUNCTION);
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &HOST_ENVIRONMENT_KEY) != LUA_TTABLE) return 0;
    if (lua_setupvalue(L, 1, 1) == NULL) return luaL_error(L, "the chunk has no _ENV to set");
    return 0;
}

int cluashim_pusehostenvironment(lua_State *L) {
    lua_pushvalue(L, -1);
    return protect(L, p_usehostenvironment, 1, 0);
}
