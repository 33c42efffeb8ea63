#ifndef PORTOLAN_CLUASHIM_STEP_CHARGE_H
#define PORTOLAN_CLUASHIM_STEP_CHARGE_H

// Private to the shim's C files: how a C function that does long work of its own (the bounded pattern
// matcher) stays under the limits the count hook enforces on Lua code, which never sees C.

#include <lua.h>

/// Adds `steps` units of work done by the running C function to the instruction count of the current
/// top-level call (when there is a budget) and polls the interrupt flag. When the budget is exceeded, the
/// interrupt was requested, or the call had already tripped, raises what the count hook raises
/// ("instruction budget exceeded" / "interrupted", at the Lua caller's line) and arms the hook to raise again
/// on every further instruction, so a pcall in the script cannot swallow it. Call only from a C function that
/// Lua called: it may longjmp.
void cluashim_chargesteps(lua_State *L, long long steps);

/// Bytes of C work that weigh one step, about one Lua instruction: scanned, copied, compared or compiled. The
/// one rate for every charge on bytes (the matcher's plain find, the charged library calls, `require`'s and
/// `load`'s compiling, large allocations).
#define STEP_BYTES 64

/// Steps a meter gathers before it charges them: as often as the hook runs, so Ctrl-C stops a match as soon
/// as it stops a loop, and a charge (a call and a few loads) costs nothing measurable.
#define STEP_CHARGE_BATCH 1000

/// Counts a C function's steps (one step weighs about one Lua instruction) and charges them in batches.
typedef struct {
    lua_State *L;
    long long uncharged;
} StepMeter;

static inline void stepmeter_start(StepMeter *meter, lua_State *L) {
    meter->L = L;
    meter->uncharged = 0;
}

/// Charges what was counted so far. Call before the C function returns, or a loop of short calls would
/// run uncharged.
static inline void stepmeter_settle(StepMeter *meter) {
    long long steps = meter->uncharged;
    if (steps == 0) return;
    meter->uncharged = 0;
    cluashim_chargesteps(meter->L, steps);
}

/// May raise (see cluashim_chargesteps).
static inline void stepmeter_count(StepMeter *meter, long long steps) {
    meter->uncharged += steps;
    if (meter->uncharged >= STEP_CHARGE_BATCH) stepmeter_settle(meter);
}

#endif
