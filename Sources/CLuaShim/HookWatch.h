#ifndef CLUASHIM_HOOKWATCH_H
#define CLUASHIM_HOOKWATCH_H

// The watchdog that arms a call's count hook once the call has run past a slice (DESIGN.md, "The count
// hook, armed by a watchdog"). A call's top-level thread runs unhooked, at the VM's full speed: in Lua 5.4 any
// count hook sends every instruction through luaG_traceexec. Every other thread of the state (the main
// thread when a coroutine runs, host coroutines between their calls, coroutines a script makes) stays
// hooked, so whatever a script resumes is counted. The watchdog, one thread per process, arms the running
// thread when a call has run past a slice or its interrupt is requested; lua_sethook is documented as safe
// to call asynchronously.

#include <lua.h>

/// One state's share of the watchdog; lives in the state's control block.
typedef struct HookWatch {
    lua_Hook hook;                  // the hook armed
    int lock;                       // a spinlock over the fields below and the hook of `running`
    lua_State *running;             // the call's top-level thread; NULL between calls
    int armed;                      // `running` carries the hook
    int step;                       // its count when armed
    int arming;                     // atomic: lua_sethook is walking the running thread's frames (see the allocator)
    long long serial;               // which top-level call this is
    long long charge;               // atomic: instructions the unhooked start of the call is estimated at
    int *interruptFlag;             // atomic pointer: a request arms the call at the watchdog's next look
    long long seenSerial;           // the watchdog's: the call it saw last, and when it first saw it
    long long firstSeen;
    struct HookWatch *next, *previous;   // the watchdog's list, under its lock
} HookWatch;

/// Budgets up to this many instructions are counted exactly: the call is hooked from its first instruction.
enum { HOOKWATCH_EXACT_BUDGET = 1000000 };
/// The watchdog's slice, in nanoseconds: a call it has seen at two looks this far apart is armed.
#define HOOKWATCH_SLICE_NS 1000000LL
/// Instructions charged per microsecond a call ran before the watchdog armed it: a low estimate of the VM's
/// speed (Lua 5.4 runs a few hundred million instructions a second), so the charge never exceeds the work.
enum { HOOKWATCH_INSTRUCTIONS_PER_MICROSECOND = 100 };
/// The longest unhooked run charged (4 slices: 400,000 instructions): what the watchdog sees is wall time.
#define HOOKWATCH_MAXIMUM_CHARGED_NS (4 * HOOKWATCH_SLICE_NS)

void hookwatch_register(HookWatch *watch, lua_Hook hook);
/// Before the state is closed: the watchdog no longer looks at it once this returns.
void hookwatch_unregister(HookWatch *watch);
void hookwatch_setinterruptflag(HookWatch *watch, int *flag);
/// A top-level call starts on `L1`: hooked with `step` at once when `armNow` (which the caller sets whenever
/// no watchdog runs, hookwatch_available), else unhooked until the watchdog arms it.
void hookwatch_begin(HookWatch *watch, lua_State *L1, int step, int armNow);
/// The call ended: `L1` is hooked again with `step`, as every thread is between calls.
void hookwatch_end(HookWatch *watch, int step);
/// Arms the running call now with `step` (a trip: 1, so that every instruction raises).
void hookwatch_arm(HookWatch *watch, int step);
/// Whether an arming is walking the running thread's frames now: a block Lua frees then may be one of them.
static inline int hookwatch_isarming(HookWatch *watch) { return __atomic_load_n(&watch->arming, __ATOMIC_SEQ_CST); }
/// Takes the instructions charged for the unhooked start of the call (0 once taken).
long long hookwatch_takecharge(HookWatch *watch);
/// Whether a watchdog runs; without one, every call is hooked from its start.
int hookwatch_available(void);

#endif
