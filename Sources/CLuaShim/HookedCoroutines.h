#ifndef CLUASHIM_HOOKEDCOROUTINES_H
#define CLUASHIM_HOOKEDCOROUTINES_H

#include <lua.h>

/// Replaces `coroutine.create` and `coroutine.wrap` in the global coroutine table by versions whose new thread
/// carries the count hook. Lua copies the creator's hook into a new thread, and a call's own thread runs
/// unhooked until the watchdog arms it (HookWatch.h): a coroutine made then would loop unseen. May raise.
void hookedcoroutines_install(lua_State *L);

#endif
