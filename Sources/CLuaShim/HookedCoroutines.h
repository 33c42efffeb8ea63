#ifndef CLUASHIM_HOOKEDCOROUTINES_H
#define CLUASHIM_HOOKEDCOROUTINES_H

#include <lua.h>

/// Replaces `coroutine.create` and `coroutine.wrap` in the global coroutine table by versions whose new thread
/// carries the count hook. Lua copies the creator's hook into a new thread, and a call's own thread runs
/// unhooked until the watchdog arms it (HookWatch.h): a coroutine made then would loop unseen. Then guards
/// `resume`, `status` and `close` against the threads the host drives (`hookedcoroutines_markhostthread`),
/// keeping an unguarded copy for the host's chunks. May raise.
void hookedcoroutines_install(lua_State *L);

/// The sandbox's part: a script's `coroutine.yield` on a thread marked main-like (`cluashim_pmarkmainlike`)
/// raises Lua's "attempt to yield from outside a coroutine", `coroutine.isyieldable` says false there and
/// `coroutine.running` that it is the main thread, as on Lua's main thread. Call after `hookedcoroutines_install`. May raise.
void hookedcoroutines_guardhostyields(lua_State *L);

/// Marks the thread at `index` as one the host drives: scripts cannot resume or close it while the host
/// holds it suspended, and see it `normal`. Does nothing in a state whose library was not installed. May
/// raise (memory).
void hookedcoroutines_markhostthread(lua_State *L, int index);

/// Pushes the coroutine library as the host's own chunks get it: hooked, and not guarded.
void hookedcoroutines_pushhostlibrary(lua_State *L);

#endif
