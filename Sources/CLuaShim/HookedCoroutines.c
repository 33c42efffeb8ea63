// The coroutine library as scripts get it: every thread a script makes carries the count hook, and the
// threads the host drives (a main flow, a handler: `LuaCoroutine`) are the host's alone. A script can
// reach such a thread (`coroutine.running()` kept by a helper), and while the host has it suspended in a
// request (a route, a wait) Lua itself would see it `normal`: in the middle of a host call, not to be
// resumed. Were it resumable, a handler could resume the scenario's own main flow with values of its
// choosing, which `portolan.route` would then return, and run the scenario to its end inside the handler.
// So for those threads `resume` and `close` fail with Lua's own messages, and `status` says `normal`. A
// Portolan host's main flows and handlers, whose requests go through its module, are also shown to
// scripts as Lua's main thread (`cluashim_pmarkmainlike`): a script's `yield` raises there and
// `isyieldable` says false (`hookedcoroutines_guardhostyields`, in the sandbox); the host's own chunks
// keep the library unguarded (`hookedcoroutines_pushhostlibrary`): their yields are the host's requests.
// Other Swift-driven coroutines yield to Swift as they always did.
#include "HookedCoroutines.h"
#include "CLuaShim.h"
#include "Protect.h"
#include "RawCopy.h"

#include <lauxlib.h>
#include <lualib.h>
#include <string.h>

// Light keys of the registry, unique by address: the set of the host's threads (weak keys), and the
// library as the host's chunks get it.
static const char HOST_THREADS_KEY = 't';
static const char HOST_LIBRARY_KEY = 'l';

/// coroutine.create, with the same checks and errors as the library's, and the hook on the new thread.
static int hookedCreate(lua_State *L) {
    luaL_checktype(L, 1, LUA_TFUNCTION);
    lua_State *thread = lua_newthread(L);
    cluashim_sethook(thread);
    lua_pushvalue(L, 1);
    lua_xmove(L, thread, 1);
    return 1;
}

/// coroutine.wrap: the library's own function (upvalue 1) makes the wrapper, whose first upvalue is its
/// thread; that thread is hooked before the script gets the wrapper.
static int hookedWrap(lua_State *L) {
    luaL_checktype(L, 1, LUA_TFUNCTION);
    lua_settop(L, 1);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, 1, 1);
    lua_State *thread = NULL;
    if (lua_getupvalue(L, -1, 1) != NULL) {
        thread = lua_tothread(L, -1);
        lua_pop(L, 1);
    }
    // Never hand out a coroutine the hook may miss.
    if (thread == NULL) return luaL_error(L, "coroutine.wrap made no thread the host can hook");
    cluashim_sethook(thread);
    return 1;
}

/// The marks of the host's threads: driven by Swift (`LuaCoroutine`), or also shown to scripts as Lua's
/// main thread (a Portolan host's main flows and handlers, whose only yields are its module's).
enum { DRIVEN = 1, MAIN_LIKE = 2 };

static void mark(lua_State *L, int index, int value) {
    index = lua_absindex(L, index);
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &HOST_THREADS_KEY) != LUA_TTABLE) {
        lua_pop(L, 1);
        return;
    }
    lua_pushvalue(L, index);
    lua_pushinteger(L, value);
    lua_rawset(L, -3);
    lua_pop(L, 1);
}

void hookedcoroutines_markhostthread(lua_State *L, int index) { mark(L, index, DRIVEN); }

static int p_markmainlike(lua_State *L) {
    mark(L, 1, MAIN_LIKE);
    return 0;
}

int cluashim_pmarkmainlike(lua_State *L, lua_State *thread) {
    lua_pushthread(thread);
    lua_xmove(thread, L, 1);
    return protect(L, p_markmainlike, 1, 0);
}

/// How the value at `index` is marked: 0 when it is no thread of the host's.
static int hostMark(lua_State *L, int index) {
    index = lua_absindex(L, index);
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &HOST_THREADS_KEY) != LUA_TTABLE) {
        lua_pop(L, 1);
        return 0;
    }
    lua_pushvalue(L, index);
    lua_rawget(L, -2);
    int value = (int)lua_tointeger(L, -1);
    lua_pop(L, 2);
    return value;
}

/// Whether the argument at `index` is a thread the host drives and holds suspended in a request: to
/// Lua, one in the middle of a call, `normal`.
static int heldByHost(lua_State *L, int index) {
    lua_State *thread = lua_tothread(L, index);
    return thread != NULL && thread != L && lua_status(thread) == LUA_YIELD && hostMark(L, index) != 0;
}

/// Whether the running thread is one a script sees as Lua's main thread (a main flow, a handler).
static int runsMainLike(lua_State *L) {
    lua_pushthread(L);
    int mainLike = hostMark(L, -1) == MAIN_LIKE;
    lua_pop(L, 1);
    return mainLike;
}

/// Calls the library's own function (upvalue 1) with the arguments as they came. Only once the guard
/// has checked the arguments and nothing the library function raises remains: an error raised by a
/// function called from C names neither it nor the script's line.
static int original(lua_State *L) {
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
}

/// The library's own argument check of a coroutine, raised from the guard the script called, so that
/// the message names the function as the library's would ("bad argument #1 to 'resume' (thread
/// expected, got number)").
static void checkCoroutine(lua_State *L) {
    if (!lua_isthread(L, 1)) luaL_typeerror(L, 1, "thread");   // liblua5.4.4's word for it
}

/// coroutine.resume: a thread the host holds is not suspended, as in Lua for one in the middle of a call.
static int guardedResume(lua_State *L) {
    checkCoroutine(L);
    if (heldByHost(L, 1)) {
        lua_pushboolean(L, 0);
        lua_pushliteral(L, "cannot resume non-suspended coroutine");
        return 2;
    }
    return original(L);
}

static int guardedStatus(lua_State *L) {
    checkCoroutine(L);
    if (heldByHost(L, 1)) {
        lua_pushliteral(L, "normal");
        return 1;
    }
    return original(L);
}

/// coroutine.close, whose refusal of a running or normal coroutine is raised here, at the script's
/// line as the library's is; what is left to the library (upvalue 1) raises nothing. Upvalue 2 is
/// the guarded `status`.
static int guardedClose(lua_State *L) {
    checkCoroutine(L);
    lua_pushvalue(L, lua_upvalueindex(2));
    lua_pushvalue(L, 1);
    lua_call(L, 1, 1);
    const char *status = lua_tostring(L, -1);
    if (status != NULL && (strcmp(status, "running") == 0 || strcmp(status, "normal") == 0)) {
        return luaL_error(L, "cannot close a %s coroutine", status);
    }
    lua_pop(L, 1);
    return original(L);
}

/// coroutine.yield: a script's main flow and a handler are, to the script, Lua's main thread, from
/// which Lua raises this message with no position. Elsewhere it yields as the library does.
static int guardedYield(lua_State *L) {
    if (runsMainLike(L)) {
        lua_pushliteral(L, "attempt to yield from outside a coroutine");
        return lua_error(L);
    }
    return lua_yield(L, lua_gettop(L));
}

static int guardedIsYieldable(lua_State *L) {
    lua_State *thread = L;
    int mainLike;
    if (lua_isnone(L, 1)) {
        mainLike = runsMainLike(L);
    } else {
        checkCoroutine(L);
        thread = lua_tothread(L, 1);
        mainLike = hostMark(L, 1) == MAIN_LIKE;
    }
    lua_pushboolean(L, !mainLike && lua_isyieldable(thread));
    return 1;
}

/// coroutine.running: the thread, and whether it is the main one, which a main flow or a handler is to
/// its script, as `isyieldable` says.
static int guardedRunning(lua_State *L) {
    int isMain = lua_pushthread(L);
    int mainLike = runsMainLike(L);
    lua_pushboolean(L, isMain || mainLike);
    return 2;
}

/// Replaces field `name` of the table on top with `wrapper`, whose upvalue is the field's function.
static void wrapField(lua_State *L, const char *name, lua_CFunction wrapper) {
    lua_getfield(L, -1, name);
    lua_pushcclosure(L, wrapper, 1);
    lua_setfield(L, -2, name);
}

void hookedcoroutines_install(lua_State *L) {
    if (lua_getglobal(L, LUA_COLIBNAME) != LUA_TTABLE) {
        lua_pop(L, 1);
        return;
    }
    lua_pushcfunction(L, hookedCreate);
    lua_setfield(L, -2, "create");
    wrapField(L, "wrap", hookedWrap);

    // The host's copy, hooked but unguarded.
    pushRawCopy(L, -1);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &HOST_LIBRARY_KEY);

    lua_newtable(L);
    lua_newtable(L);
    lua_pushliteral(L, "k");
    lua_setfield(L, -2, "__mode");
    lua_setmetatable(L, -2);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &HOST_THREADS_KEY);

    wrapField(L, "resume", guardedResume);
    wrapField(L, "status", guardedStatus);
    lua_getfield(L, -1, "close");
    lua_getfield(L, -2, "status");
    lua_pushcclosure(L, guardedClose, 2);
    lua_setfield(L, -2, "close");
    lua_pop(L, 1);
}

void hookedcoroutines_guardhostyields(lua_State *L) {
    if (lua_getglobal(L, LUA_COLIBNAME) != LUA_TTABLE) {
        lua_pop(L, 1);
        return;
    }
    lua_pushcfunction(L, guardedYield);
    lua_setfield(L, -2, "yield");
    lua_pushcfunction(L, guardedIsYieldable);
    lua_setfield(L, -2, "isyieldable");
    lua_pushcfunction(L, guardedRunning);
    lua_setfield(L, -2, "running");
    lua_pop(L, 1);
}

void hookedcoroutines_pushhostlibrary(lua_State *L) {
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &HOST_LIBRARY_KEY) != LUA_TTABLE) {
        lua_pop(L, 1);
        lua_getglobal(L, LUA_COLIBNAME);
    }
}
