#include "CLuaShim.h"
#include "CallerErrors.h"
#include "HookWatch.h"
#include "Platform.h"
#include "Protect.h"
#include "SmallBlockPool.h"
#include "Sandbox/StepCharge.h"

#include <stdio.h>
#include <stdlib.h>
#include <sched.h>
#include <string.h>
#include <time.h>
#if PORTOLAN_LINUX_PATHS
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

// MARK: - Control block

/// One per lua_State, reached from any of its threads through the allocator's userdata.
typedef struct {
    size_t memoryUsed;
    size_t memoryLimit;            // 0: none
    long long instructionBudget;   // <= 0: none
    long long instructionsUsed;
    int tripped;                   // CLUASHIM_TRIP_*
    int *interruptFlag;            // owned by Swift; NULL: none
    long long deadline;            // CLOCK_MONOTONIC nanoseconds; 0: none
    int deprioritized;             // the running thread lowered its priority (CLUASHIM_INTERRUPT_ABANDONED)
    void *owner;                   // the Swift LuaState, unretained; NULL while closing
    cluashim_swift_call call;
    cluashim_swift_release release;
    char *traceback;               // malloc'd, outside the counted allocator
    HookWatch watch;               // who arms the running call's hook (HookWatch.h)
    int unhookedRun;               // the call's thread may be armed by the watchdog at any moment
    SmallBlockPool pool;           // where Lua's blocks come from (SmallBlockPool.h)
} Control;

/// How often the hook runs when no smaller budget asks for more: often enough for Ctrl-C to feel immediate,
/// rare enough to cost nothing measurable.
static const int HOOK_STEP = 1000;

static Control *control(lua_State *L) {
    void *ud = NULL;
    lua_getallocf(L, &ud);
    return (Control *)ud;
}

static long long monotonicNanoseconds(void);

/// Growth from this size up is work the count hook may not see: one instruction (`s .. t` of large strings)
/// can copy the whole memory cap, and a thousand of them run between two hooks.
static const size_t LARGE_GROWTH = 1 << 20;

static int tripsLimits(Control *c, long long work);

/// Whether a large growth must be refused because the running call is past a limit: the growth is charged
/// (STEP_BYTES a step, as the library functions charge) by the rule the hook follows (tripsLimits). The refusal
/// is Lua's memory error, which the host reports as the limit that tripped (LuaProtectedCall), and the hook
/// raises the limit itself at the next instruction that a script's pcall returns to.
static int refusesLargeGrowth(Control *c, size_t growth) { return tripsLimits(c, (long long)(growth / STEP_BYTES)); }

/// While the watchdog may arm the running thread, a block is freed only when no arming is walking its frames
/// (HookWatch.c, armRunning). The fence orders the thread's own earlier stores (its frame pointer) before the
/// check; the wait is a few hundred instructions, once per armed call at most.
static void waitForArming(Control *c) {
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    while (hookwatch_isarming(&c->watch)) sched_yield();
}

/// Counts every byte Lua asks for (not what the pool reserves) and refuses growth past the limit. Lua then runs an
/// emergency collection, retries, and raises LUA_ERRMEM if it still fails. Shrinking and freeing never fail.
static void *countingAlloc(void *ud, void *ptr, size_t osize, size_t nsize) {
    Control *c = (Control *)ud;
    size_t old = ptr ? osize : 0;   // without a block, osize encodes the object's type, not a size
    if (nsize == 0) {
        if (c->unhookedRun) waitForArming(c);
        smallpool_resize(&c->pool, ptr, old, 0);
        c->memoryUsed -= old;
        return NULL;
    }
    if (nsize > old && c->memoryLimit != 0) {
        size_t growth = nsize - old;
        if (c->memoryUsed > c->memoryLimit || growth > c->memoryLimit - c->memoryUsed) return NULL;
    }
    if (nsize > old && nsize - old >= LARGE_GROWTH && refusesLargeGrowth(c, nsize - old)) return NULL;
    void *block = smallpool_resize(&c->pool, ptr, old, nsize);
    if (block == NULL) return NULL;
    c->memoryUsed = c->memoryUsed - old + nsize;
    return block;
}

static int panic(lua_State *L) {
    // Reached only if something raised outside any pcall, which the shim is written to prevent.
    const char *msg = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "(error object is not a string)";
    fprintf(stderr, "Lua panic (unprotected error): %s\n", msg);
    return 0;   // Lua aborts
}

// MARK: - Hook: instruction budget and interrupt

static int hookStep(Control *c) {
    if (c->instructionBudget > 0 && c->instructionBudget < HOOK_STEP) return (int)c->instructionBudget;
    return HOOK_STEP;
}

static void countHook(lua_State *L, lua_Debug *ar);

/// "file:line: " of the first frame from `level` up that has a line: the script's, when a charged C function
/// (a comparator table.sort calls) trips the limits from below another C function.
static void pushScriptWhere(lua_State *L, int level) {
    lua_Debug ar;
    for (; lua_getstack(L, level, &ar); level++) {
        lua_getinfo(L, "Sl", &ar);
        if (ar.currentline > 0) {
            lua_pushfstring(L, "%s:%d: ", ar.short_src, ar.currentline);
            return;
        }
    }
    lua_pushliteral(L, "");
}

/// Once tripped, the hook runs on every instruction and raises each time, so a script cannot swallow the
/// error with pcall and carry on: every Lua frame it returns to raises again until the host's pcall is reached.
/// `level` is where the message says it happened: 0, the running Lua function (from the hook); 1, the Lua
/// caller of the running C function.
static void raiseTripped(lua_State *L, Control *c, int level) {
    lua_sethook(L, countHook, LUA_MASKCOUNT, 1);
    pushScriptWhere(L, level);
    lua_pushstring(L, cluashim_tripdescription(c->tripped));
    lua_concat(L, 2);
    lua_error(L);   // allowed in a count hook and in a C function; unwinds to the nearest pcall, never through Swift
}

/// An abandoned call's thread (its caller gave up waiting for it) lowers its own scheduling priority to the
/// least there is, once, so that whatever it still does costs the other threads next to nothing on a busy
/// machine. Linux keeps a nice value per thread; POSIX has none a thread may lower, so the portable path has none.
static void yieldTheMachine(Control *c) {
    c->deprioritized = 1;
#if PORTOLAN_LINUX_PATHS
    (void)setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), 19);
#endif
}

static long long monotonicNanoseconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (long long)now.tv_sec * 1000000000LL + now.tv_nsec;
}

/// Counts `work` against the budget, takes a requested interrupt and checks the deadline, and records which
/// limit the call is past, if any: the one rule for Lua code (the hook), for C functions that charge their own
/// steps, and for large allocations (refusesLargeGrowth); enforceLimits raises what it records. The deadline
/// is read from the clock here, at most once per hook step (a vDSO call, some 20 ns per thousand
/// instructions), so a handler past its time limit stops wherever it is, not only when it next waits.
/// Which limit the call is past, if any, counting `work` (and what the unhooked start of the call is
/// charged, HookWatch.h) against the budget.
static int checkLimits(Control *c, long long work) {
    // A plain load first: the read-modify-write locks the bus, and the flag is almost always clear.
    if (c->interruptFlag != NULL && (__atomic_load_n(c->interruptFlag, __ATOMIC_RELAXED) & CLUASHIM_INTERRUPT_REQUESTED)
        && (__atomic_fetch_and(c->interruptFlag, ~CLUASHIM_INTERRUPT_REQUESTED, __ATOMIC_SEQ_CST)
            & CLUASHIM_INTERRUPT_REQUESTED)) {
        return CLUASHIM_TRIP_INTERRUPT;
    }
    if (c->deadline != 0 && monotonicNanoseconds() > c->deadline) return CLUASHIM_TRIP_DEADLINE;
    if (c->instructionBudget > 0) {
        c->instructionsUsed += work + hookwatch_takecharge(&c->watch);
        if (c->instructionsUsed > c->instructionBudget) return CLUASHIM_TRIP_BUDGET;
    }
    return CLUASHIM_TRIP_NONE;
}

static int tripsLimits(Control *c, long long work) {
    if (c->tripped != CLUASHIM_TRIP_NONE) return 1;
    int tripped = checkLimits(c, work);
    if (tripped == CLUASHIM_TRIP_NONE) return 0;
    c->tripped = tripped;
    // The call's thread is hooked at once, with a count of 1: a script that swallows the error (with pcall, or
    // a refused allocation's memory error) raises again at its next instruction, unhooked until now or not.
    hookwatch_arm(&c->watch, 1);
    return 1;
}

static void enforceLimits(lua_State *L, Control *c, long long work, int level) {
    if (c->interruptFlag != NULL && !c->deprioritized
        && (__atomic_load_n(c->interruptFlag, __ATOMIC_RELAXED) & CLUASHIM_INTERRUPT_ABANDONED)) {
        yieldTheMachine(c);
    }
    if (tripsLimits(c, work)) raiseTripped(L, c, level);
}

static void countHook(lua_State *L, lua_Debug *ar) {
    (void)ar;
    Control *c = control(L);
    // Armed, and the arming over: frees need no longer wait for it (waitForArming).
    if (c->unhookedRun && L == c->watch.running && !hookwatch_isarming(&c->watch)) c->unhookedRun = 0;
    enforceLimits(L, c, lua_gethookcount(L), 0);
}

void cluashim_chargesteps(lua_State *L, long long steps) { enforceLimits(L, control(L), steps, 1); }

void cluashim_sethook(lua_State *L1) {
    Control *c = control(L1);
    lua_sethook(L1, countHook, LUA_MASKCOUNT, c->tripped != CLUASHIM_TRIP_NONE ? 1 : hookStep(c));
}

/// A budget small enough that a slice could exceed it is counted from the first instruction, and so is a call
/// whose deadline is that close: the watchdog would see them only after a slice.
static int armsAtOnce(Control *c) {
    if (!hookwatch_available()) return 1;
    if (c->instructionBudget > 0 && c->instructionBudget <= HOOKWATCH_EXACT_BUDGET) return 1;
    return c->deadline != 0 && c->deadline - monotonicNanoseconds() <= 2 * HOOKWATCH_SLICE_NS;
}

void cluashim_beginbudget(lua_State *L, lua_State *L1) {
    Control *c = control(L);
    c->instructionsUsed = 0;
    c->tripped = CLUASHIM_TRIP_NONE;
    if (L1 != L) cluashim_sethook(L);   // the main thread, hooked while the call runs a coroutine
    int armNow = armsAtOnce(c);
    c->unhookedRun = !armNow;
    hookwatch_begin(&c->watch, L1, hookStep(c), armNow);
}

void cluashim_endbudget(lua_State *L) {
    Control *c = control(L);
    hookwatch_end(&c->watch, hookStep(c));
    c->unhookedRun = 0;
}

void cluashim_setinstructionbudget(lua_State *L, long long budget) { control(L)->instructionBudget = budget; }
long long cluashim_instructionbudget(lua_State *L) { return control(L)->instructionBudget; }
long long cluashim_instructionsused(lua_State *L) { return control(L)->instructionsUsed; }
int cluashim_tripped(lua_State *L) { return control(L)->tripped; }

const char *cluashim_tripdescription(int tripped) {
    switch (tripped) {
    case CLUASHIM_TRIP_INTERRUPT: return "interrupted";
    case CLUASHIM_TRIP_DEADLINE: return "time limit exceeded";
    case CLUASHIM_TRIP_BUDGET: return "instruction budget exceeded";
    default: return "";
    }
}

void cluashim_setinterruptflag(lua_State *L, int *flag) {
    Control *c = control(L);
    c->interruptFlag = flag;
    hookwatch_setinterruptflag(&c->watch, flag);
}

long long cluashim_monotonicnow(void) { return monotonicNanoseconds(); }
long long cluashim_deadline(lua_State *L) { return control(L)->deadline; }
void cluashim_setdeadline(lua_State *L, long long deadline) {
    Control *c = control(L);
    c->deadline = deadline > 0 ? deadline : 0;
    // Set inside a running call (a nested time limit): a close deadline cannot wait for the watchdog.
    if (c->deadline != 0 && c->deadline - monotonicNanoseconds() <= 2 * HOOKWATCH_SLICE_NS) {
        hookwatch_arm(&c->watch, c->tripped != CLUASHIM_TRIP_NONE ? 1 : hookStep(c));
    }
}
void cluashim_flag_setbits(int *flag, int bits) { __atomic_fetch_or(flag, bits, __ATOMIC_SEQ_CST); }
void cluashim_flag_clearbits(int *flag, int bits) { __atomic_fetch_and(flag, ~bits, __ATOMIC_SEQ_CST); }
int cluashim_flag_get(int *flag) { return __atomic_load_n(flag, __ATOMIC_SEQ_CST); }

size_t cluashim_memoryused(lua_State *L) { return control(L)->memoryUsed; }
size_t cluashim_memorylimit(lua_State *L) { return control(L)->memoryLimit; }
void cluashim_setmemorylimit(lua_State *L, size_t limit) { control(L)->memoryLimit = control(L)->pool.reserveLimit = limit; }
size_t cluashim_poolreserved(lua_State *L) { return control(L)->pool.reserved; }

void cluashim_setowner(lua_State *L, void *owner) { control(L)->owner = owner; }
void *cluashim_getowner(lua_State *L) { return control(L)->owner; }

// MARK: - Creation and closing

lua_State *cluashim_newstate(cluashim_swift_call call, cluashim_swift_release release) {
    Control *c = calloc(1, sizeof(Control));
    if (c == NULL) return NULL;
    c->call = call;
    c->release = release;
    lua_State *L = lua_newstate(countingAlloc, c);
    if (L == NULL) {
        free(c);
        return NULL;
    }
    lua_atpanic(L, panic);
    cluashim_sethook(L);
    hookwatch_register(&c->watch, countHook);
    return L;
}

void cluashim_close(lua_State *L) {
    Control *c = control(L);
    hookwatch_unregister(&c->watch);   // first: the watchdog must not arm a thread that is being freed
    c->owner = NULL;
    c->interruptFlag = NULL;
    c->pool.closing = 1;   // lua_close frees through countingAlloc, which still needs `c`; pooled blocks go with
    lua_close(L);          // their chunks below, so its frees of them cost nothing
    smallpool_release(&c->pool);
    free(c->traceback);
    free(c);
}

// MARK: - Protected calls

static int messageHandler(lua_State *L) {
    Control *c = control(L);
    // luaL_traceback allocates; if that fails Lua reports LUA_ERRERR, which Swift handles.
    luaL_traceback(L, L, NULL, 1);
    free(c->traceback);
    const char *text = lua_tostring(L, -1);
    c->traceback = text ? strdup(text) : NULL;
    lua_pop(L, 1);
    return 1;   // the original error object, untouched
}

int cluashim_pcalltraceback(lua_State *L, int nargs, int nresults) {
    int base = lua_gettop(L) - nargs;   // the function
    lua_pushcfunction(L, messageHandler);
    lua_insert(L, base);
    int status = lua_pcall(L, nargs, nresults, base);
    lua_remove(L, base);
    return status;
}

int cluashim_pcallref(lua_State *L, int function, int argument) {
    int base = lua_gettop(L) + 1;   // the message handler
    lua_pushcfunction(L, messageHandler);
    lua_rawgeti(L, LUA_REGISTRYINDEX, function);
    int nargs = 0;
    if (argument != LUA_NOREF) {
        lua_rawgeti(L, LUA_REGISTRYINDEX, argument);
        nargs = 1;
    }
    int status = lua_pcall(L, nargs, 0, base);
    lua_remove(L, base);
    return status;
}

const char *cluashim_lasttraceback(lua_State *L) { return control(L)->traceback; }

void cluashim_cleartraceback(lua_State *L) {
    Control *c = control(L);
    free(c->traceback);
    c->traceback = NULL;
}

// MARK: - Swift functions

static const char *const SWIFT_FUNCTION_METATABLE = "CLuaShim.SwiftFunction";

/// The only way Lua calls Swift. Swift reports errors by return value; this C frame raises them once the
/// Swift frames are gone, so the longjmp never crosses Swift.
static int trampoline(lua_State *L) {
    void **slot = (void **)lua_touserdata(L, lua_upvalueindex(1));
    Control *c = control(L);
    if (slot == NULL || *slot == NULL || c->call == NULL) return luaL_error(L, "Swift function is no longer available");
    int n = c->call(L, *slot);
    if (n >= 0) return n;
    if (n == CLUASHIM_SWIFT_ERROR && lua_type(L, -1) == LUA_TSTRING) {
        // At the script's line, also when a library function of the state's called this one.
        cluashim_whereoutsidelibrary(L, 1);
        lua_insert(L, -2);
        lua_concat(L, 2);
    }
    return lua_error(L);
}

static int releaseSwiftFunction(lua_State *L) {
    void **slot = (void **)lua_touserdata(L, 1);
    if (slot != NULL && *slot != NULL) {
        void *box = *slot;
        *slot = NULL;
        Control *c = control(L);
        if (c->release != NULL) c->release(box);
    }
    return 0;
}

static int p_pushswiftfunction(lua_State *L) {
    void *box = lua_touserdata(L, 1);
    void **slot = (void **)lua_newuserdatauv(L, sizeof(void *), 0);
    *slot = NULL;   // owns nothing until every allocation below has succeeded
    if (luaL_newmetatable(L, SWIFT_FUNCTION_METATABLE)) {
        lua_pushcfunction(L, releaseSwiftFunction);
        lua_setfield(L, -2, "__gc");
        lua_pushboolean(L, 0);
        lua_setfield(L, -2, "__metatable");
    }
    lua_setmetatable(L, -2);
    lua_pushcclosure(L, trampoline, 1);
    *slot = box;   // no allocation after this point: ownership moves to the userdata only on success
    return 1;
}

int cluashim_ppushswiftfunction(lua_State *L, void *box) {
    lua_pushlightuserdata(L, box);
    return protect(L, p_pushswiftfunction, 1, 1);
}
