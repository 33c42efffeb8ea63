#ifndef PORTOLAN_CLUASHIM_H
#define PORTOLAN_CLUASHIM_H

// The C half of the Swift wrapper of a lua_State.
//
// Two jobs:
// 1. Make the Lua C API usable from Swift: macros Swift cannot import become static inline functions.
// 2. Keep Lua's longjmp away from Swift frames. Every function below whose name starts with `cluashim_p`
//    runs the raising work inside lua_pcall and returns a status (LUA_OK or an error code); on error it leaves
//    exactly one value, the error object, on top of the stack. Swift functions are only ever called from C
//    (the trampoline), and the trampoline raises their errors after they have returned.

#include <stddef.h>
#include <lua.h>
#include <lauxlib.h>
#include <lualib.h>

#include "ConfinedFile.h"
#include "ConfinedFolder.h"

// MARK: - Macros Swift cannot import

static inline int cluashim_registryindex(void) { return LUA_REGISTRYINDEX; }
static inline int cluashim_upvalueindex(int i) { return lua_upvalueindex(i); }
static inline int cluashim_multret(void) { return LUA_MULTRET; }

/// lua_settop can run __close metamethods when it drops to-be-closed slots; Swift never marks slots
/// to-be-closed (no lua_toclose), so popping from Swift cannot raise.
static inline void cluashim_pop(lua_State *L, int n) { lua_settop(L, -(n) - 1); }
static inline void cluashim_insert(lua_State *L, int idx) { lua_rotate(L, idx, 1); }
static inline void cluashim_remove(lua_State *L, int idx) { lua_rotate(L, idx, -1); lua_settop(L, -2); }
static inline void cluashim_replace(lua_State *L, int idx) { lua_copy(L, -1, idx); lua_settop(L, -2); }
static inline int cluashim_isnoneornil(lua_State *L, int idx) { return lua_type(L, idx) <= 0; }
static inline int cluashim_isnil(lua_State *L, int idx) { return lua_type(L, idx) == LUA_TNIL; }
static inline lua_Number cluashim_tonumber(lua_State *L, int idx) { return lua_tonumberx(L, idx, NULL); }
static inline lua_Integer cluashim_tointeger(lua_State *L, int idx) { return lua_tointegerx(L, idx, NULL); }
/// Pushing a C function without upvalues allocates nothing (it is a light C function), so it cannot raise.
static inline void cluashim_pushcfunction(lua_State *L, lua_CFunction f) { lua_pushcclosure(L, f, 0); }
/// Only for values already known to be strings: on a number lua_tolstring converts in place, which allocates.
static inline const char *cluashim_tolstring(lua_State *L, int idx, size_t *len) {
    return lua_type(L, idx) == LUA_TSTRING ? lua_tolstring(L, idx, len) : NULL;
}
static inline int cluashim_pcall(lua_State *L, int nargs, int nresults, int msgh) {
    return lua_pcallk(L, nargs, nresults, msgh, 0, NULL);
}

// MARK: - Which Lua

/// LUA_RELEASE of the lua.h this code is compiled against ("Lua 5.4.4"): a macro made of concatenated
/// literals, which Swift does not import.
static inline const char *cluashim_headerrelease(void) { return LUA_RELEASE; }
/// The identity string compiled into the library linked at run time ("$LuaVersion: Lua 5.4.4  Copyright
/// ... $$LuaAuthors: ... $"). lua_version(L) gives only 504, the same for every 5.4.x; this string is the
/// one place the running library states its release. An array of unknown size, which Swift cannot import.
static inline const char *cluashim_libraryidentity(void) { return lua_ident; }

// MARK: - State, control block and limits

/// How a protected call was cut short by the shim's hook, if it was.
enum {
    CLUASHIM_TRIP_NONE = 0,
    CLUASHIM_TRIP_BUDGET = 1,
    CLUASHIM_TRIP_INTERRUPT = 2,
    CLUASHIM_TRIP_DEADLINE = 3,
};

/// Results of a Swift function called through the trampoline, when negative.
enum {
    /// The error object is on top; prefix it with the caller's position (`app.lua:3: `) when it is a string.
    CLUASHIM_SWIFT_ERROR = -1,
    /// The error object is on top; raise it as is (it is an error coming back from Lua, already positioned).
    CLUASHIM_SWIFT_RERAISE = -2,
};

/// Calls a Swift function: arguments are the stack of `L`; returns the number of results pushed, or one of
/// the CLUASHIM_SWIFT_ values with the error object on top. Must not raise.
typedef int (*cluashim_swift_call)(lua_State *L, void *box);
/// Releases the Swift object kept alive by a Swift function's userdata. Must not raise.
typedef void (*cluashim_swift_release)(void *box);

/// A new state with the counting allocator, the count hook installed and no libraries. NULL when out of memory.
lua_State *cluashim_newstate(cluashim_swift_call call, cluashim_swift_release release);
/// Closes the state and frees the control block. Runs finalizers; the owner is cleared first so that none of
/// them reaches a Swift object that is being deinitialised.
void cluashim_close(lua_State *L);

void cluashim_setowner(lua_State *L, void *owner);
void *cluashim_getowner(lua_State *L);

size_t cluashim_memoryused(lua_State *L);
size_t cluashim_memorylimit(lua_State *L);
/// 0 means no limit. Allocations that would pass the limit fail, and Lua raises "not enough memory". The state's
/// pool of small blocks reserves at most the limit too, so that blocks freed in one size class and never reused
/// by another cannot hold more than the limit outside what Lua counts (past it, small blocks come from malloc).
void cluashim_setmemorylimit(lua_State *L, size_t limit);
/// Bytes of the chunks the state's pool of small blocks holds (SmallBlockPool.h): what it takes from malloc,
/// whether or not Lua holds the blocks now.
size_t cluashim_poolreserved(lua_State *L);

/// Instructions allowed to the current top-level call; 0 or less means no budget.
void cluashim_setinstructionbudget(lua_State *L, long long budget);
long long cluashim_instructionbudget(lua_State *L);
long long cluashim_instructionsused(lua_State *L);
/// Starts a new top-level call on thread `L1`: zero the count, clear the trip, and leave `L1` unhooked until
/// the watchdog arms it (HookWatch.h), or hook it at once when the budget is small or the deadline close.
void cluashim_beginbudget(lua_State *L, lua_State *L1);
/// Ends the top-level call cluashim_beginbudget started: its thread is hooked again, as every thread is
/// between calls (a script may resume a host coroutine's thread in a later call).
void cluashim_endbudget(lua_State *L);
/// Installs the shim's count hook on a thread (hooks are per thread). Every thread but the running call's
/// carries it: the host's coroutines, and every coroutine a script creates (coroutine.create and wrap).
void cluashim_sethook(lua_State *L1);
/// Wakes the watchdog, which then arms a call whose interrupt is requested. Async-signal-safe (a sem_post).
void cluashim_wakewatchdog(void);
/// One of CLUASHIM_TRIP_*.
int cluashim_tripped(lua_State *L);
/// What the hook says when a call trips `tripped` ("instruction budget exceeded"…); "" for none.
const char *cluashim_tripdescription(int tripped);

/// The time limit the hook checks, in cluashim_monotonicnow()'s nanoseconds; 0 or less: none. Passing it raises
/// "time limit exceeded" as the budget does (pcall cannot swallow it).
void cluashim_setdeadline(lua_State *L, long long deadline);
long long cluashim_deadline(lua_State *L);
/// CLOCK_MONOTONIC in nanoseconds.
long long cluashim_monotonicnow(void);
/// The flag the hook polls; owned by Swift, which keeps it alive longer than the state.
void cluashim_setinterruptflag(lua_State *L, int *flag);
/// Bits of the interrupt flag: a stop is requested (the hook clears it when it raises); the call was abandoned
/// by whoever waited for it (sticky: its thread lowers its own priority at the next hook).
enum {
    CLUASHIM_INTERRUPT_REQUESTED = 1,
    CLUASHIM_INTERRUPT_ABANDONED = 2,
};
/// Async-signal-safe: atomic read-modify-writes.
void cluashim_flag_setbits(int *flag, int bits);
void cluashim_flag_clearbits(int *flag, int bits);
int cluashim_flag_get(int *flag);

/// The traceback recorded by the message handler of the last failed cluashim_pcalltraceback, or NULL.
const char *cluashim_lasttraceback(lua_State *L);
void cluashim_cleartraceback(lua_State *L);

// MARK: - Protected operations (return a status; on error, one error object on top)

/// lua_pcall with a message handler that records a traceback (see cluashim_lasttraceback).
/// Needs one free stack slot.
int cluashim_pcalltraceback(lua_State *L, int nargs, int nresults);
/// Calls the registry's `function` with the registry's `argument` (none when LUA_NOREF) as
/// cluashim_pcalltraceback does, its results dropped: one C call, nothing pushed from Swift.
/// Needs three free stack slots; on error leaves the error object on top.
int cluashim_pcallref(lua_State *L, int function, int argument);
int cluashim_ppushlstring(lua_State *L, const char *s, size_t len);
/// The frame at `level` of `L`'s stack: -1 past the last, 0 for one without a line (C), 1 with
/// its short source name in `source` and its current line in `line`. Never raises.
int cluashim_frame(lua_State *L, int level, char *source, size_t size, int *line);
/// The deepest value the decoder of encoded values pushes (the top value is at 0): it recurses on
/// the C stack. LuaValueEncoding.swift refuses deeper tables first, as a conversion error.
#define CLUASHIM_MAX_ENCODED_DEPTH 1000
/// Pushes `count` values encoded by LuaValueEncoding.swift, under one lua_pcall.
int cluashim_ppushencoded(lua_State *L, const unsigned char *bytes, size_t length, int count);
int cluashim_pcreatetable(lua_State *L, int narr, int nrec);
/// t[k] = v without metamethods, for the table at `idx` and k, v on top (popped). Raises on a nil or NaN key
/// and on allocation failure, hence protected.
int cluashim_prawset(lua_State *L, int idx);
/// Pops the value on top and stores a registry reference to it in `*ref`.
int cluashim_pref(lua_State *L, int *ref);
int cluashim_punref(lua_State *L, int ref);
/// Pushes a new thread for Swift to drive (`LuaCoroutine`): no script may resume or close it while Swift
/// holds it suspended, and scripts see it `normal` then (HookedCoroutines.c).
int cluashim_pnewthread(lua_State *L);
/// Marks `thread`, made by `cluashim_pnewthread`, as one its scripts see as Lua's main thread: in the sandbox
/// their `coroutine.yield` raises there and `coroutine.isyieldable` says false. Leaves L's stack as it was.
int cluashim_pmarkmainlike(lua_State *L, lua_State *thread);
/// Pushes a Lua function calling `box` through the trampoline. On success the userdata owns `box` (released by
/// its __gc); on failure the caller still owns it.
int cluashim_ppushswiftfunction(lua_State *L, void *box);
/// luaL_tolstring of the value at `idx` (may run __tostring).
int cluashim_ptostring(lua_State *L, int idx);
/// Pushes the traceback of the thread at `threadIndex` (which may be a dead coroutine) onto `L`.
int cluashim_ptraceback(lua_State *L, int threadIndex, int level);
/// Global access runs __index/__newindex on _G when a script set them, so both go through the traceback pcall.
int cluashim_pgetglobal(lua_State *L, const char *name);
/// Pops the value on top into global `name`.
int cluashim_psetglobal(lua_State *L, const char *name);
int cluashim_pgc(lua_State *L, int what);

/// All standard libraries (not sandboxed).
int cluashim_popenlibs(lua_State *L);
/// The sandbox: base, string, table, math, utf8, coroutine; load text-only; no dofile/loadfile/string.dump;
/// collectgarbage limited; setmetatable refuses __gc; a controlled require; the string metatable locked;
/// string.find, match, gmatch and gsub bounded by the instruction budget and the interrupt.
int cluashim_popensandbox(lua_State *L);
/// Replaces global `name` (a table) and its package.loaded entry by a read-only view: reads go through,
/// writes raise (`cannot set NAME.key: DESCRIPTION is read-only`), pairs and # see the table, and the sandbox's
/// rawset refuses it. The sandbox does this to its libraries; the host to the `portolan` module.
int cluashim_preadonlyglobal(lua_State *L, const char *name, const char *description);
/// While `writable` is 1, read-only views write through: for the host configuring its own module.
int cluashim_psetviewswritable(lua_State *L, int writable);
/// Pushes `shown(t)`: the table a read-only view shows, or `t` itself (raw reads only, no metamethod runs).
int cluashim_ppushshowntable(lua_State *L);
/// Pushes `metatable_of(v)`: v's metatable even when `__metatable` hides it (for the host's own Lua only).
int cluashim_ppushrawmetatable(lua_State *L);
/// Pushes `clear_metatable(t)`: t with no metatable, even a locked one (for the host's own Lua only).
int cluashim_ppushclearmetatable(lua_State *L);
/// Gives the main chunk on top the host's environment as its `_ENV` (HostEnvironment.c): the globals as the
/// sandbox made them, which no script can change. The function stays on the stack. No-op without a sandbox.
int cluashim_pusehostenvironment(lua_State *L);
/// Pushes a table holding the sandbox's bounded `find`, `match`, `gmatch` and `gsub` (the string library's, with
/// every step of a match charged to the instruction budget and the interrupt polled), so that tests and
/// benchmarks can set them beside liblua5.4's in a state with every library.
int cluashim_pboundedpatternfunctions(lua_State *L);
/// Names the state's library chunk (CallerErrors.c): an error a Swift function raises, or one raised with
/// `error_at_caller`, is placed at the first frame outside the chunk `chunkName` and its parts (`chunkName.x`).
int cluashim_psetlibrarychunk(lua_State *L, const char *chunkName);
/// Pushes `error_at_caller(message)`, which raises at the first frame outside the library, and
/// `keep_caller(fn)`, which wraps fn in a C function that keeps its caller's frame on the stack even
/// when it is called in tail position (`return portolan.redirect(x)`).
int cluashim_ppushcallerfunctions(lua_State *L);
/// Pops the value on top into the preload table under `name` (what `require(name)` calls).
int cluashim_psetpreload(lua_State *L, const char *name);
/// The directory the sandboxed require searches for `name.lua`; NULL for none.
int cluashim_psetmoduledirectory(lua_State *L, const char *directory);
/// 1 when `name` is acceptable to the sandboxed require's file search (dotted segments of [A-Za-z0-9_-]).
int cluashim_validmodulename(const char *name);
/// Pushes a sequence of the paths of the modules the sandboxed require has read from files (in no set order).
int cluashim_prequiredfiles(lua_State *L);
/// Removes those modules from package.loaded, unless preloaded since, and forgets them, so that the next require
/// of each reads its file again.
int cluashim_pforgetrequiredmodules(lua_State *L);

#endif
