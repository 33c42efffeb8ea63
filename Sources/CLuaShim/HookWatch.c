#include "HookWatch.h"
#include "CLuaShim.h"
#include "Wakeup.h"

#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <time.h>

static long long now(void) {
    struct timespec time;
    clock_gettime(CLOCK_MONOTONIC, &time);
    return (long long)time.tv_sec * 1000000000LL + time.tv_nsec;
}

// MARK: - One state's watch

static void lockWatch(HookWatch *watch) {
    while (__atomic_exchange_n(&watch->lock, 1, __ATOMIC_ACQUIRE)) {
        // Held for a few dozen instructions; the holder may have been preempted on a busy machine.
        while (__atomic_load_n(&watch->lock, __ATOMIC_RELAXED)) sched_yield();
    }
}

static void unlockWatch(HookWatch *watch) { __atomic_store_n(&watch->lock, 0, __ATOMIC_RELEASE); }

/// Under the lock.
/// lua_sethook marks every frame of the thread (settraps walks L->ci's chain), and the watchdog does so while
/// the thread runs: the owner's allocator waits while `arming` is set before it frees a block, so no frame
/// (a CallInfo, which the collector frees when the thread's stack shrinks) is freed under the walk.
static void armRunning(HookWatch *watch, int step) {
    watch->armed = 1;
    watch->step = step;
    if (watch->running == NULL) return;
    __atomic_store_n(&watch->arming, 1, __ATOMIC_SEQ_CST);
    lua_sethook(watch->running, watch->hook, LUA_MASKCOUNT, step);
    __atomic_store_n(&watch->arming, 0, __ATOMIC_SEQ_CST);
}

void hookwatch_arm(HookWatch *watch, int step) {
    lockWatch(watch);
    armRunning(watch, step);
    unlockWatch(watch);
}

long long hookwatch_takecharge(HookWatch *watch) {
    if (__atomic_load_n(&watch->charge, __ATOMIC_RELAXED) == 0) return 0;
    return __atomic_exchange_n(&watch->charge, 0, __ATOMIC_RELAXED);
}

void hookwatch_setinterruptflag(HookWatch *watch, int *flag) {
    __atomic_store_n(&watch->interruptFlag, flag, __ATOMIC_RELEASE);
}

static void wakeIfParked(void);

void hookwatch_begin(HookWatch *watch, lua_State *L1, int step, int armNow) {
    lockWatch(watch);
    watch->running = L1;
    watch->serial += 1;
    watch->armed = armNow;
    watch->step = step;
    __atomic_store_n(&watch->charge, 0, __ATOMIC_RELAXED);
    if (armNow) lua_sethook(L1, watch->hook, LUA_MASKCOUNT, step);
    else lua_sethook(L1, NULL, 0, 0);
    unlockWatch(watch);
    if (!armNow) wakeIfParked();
}

void hookwatch_end(HookWatch *watch, int step) {
    lockWatch(watch);
    if (watch->running != NULL) lua_sethook(watch->running, watch->hook, LUA_MASKCOUNT, step);
    watch->running = NULL;
    watch->armed = 0;
    __atomic_store_n(&watch->charge, 0, __ATOMIC_RELAXED);
    unlockWatch(watch);
}

// MARK: - The watchdog thread

static pthread_mutex_t listLock = PTHREAD_MUTEX_INITIALIZER;
static HookWatch *watched;        // under listLock
static wakeup *watchdogWakeup;    // posted by a call that starts while the watchdog is parked, and by interrupts
static int parked;                // atomic
static int running;               // atomic: the watchdog thread started
static pthread_once_t startOnce = PTHREAD_ONCE_INIT;

/// Looks at one state: arms its call when an interrupt is requested, or when it saw the same call at its
/// previous look (it has run at least a slice), charging the slice it ran unhooked. Whether a call runs.
static int look(HookWatch *watch, long long time) {
    lockWatch(watch);
    int busy = watch->running != NULL;
    if (busy && !watch->armed) {
        int *flag = __atomic_load_n(&watch->interruptFlag, __ATOMIC_ACQUIRE);
        if (flag != NULL && (__atomic_load_n(flag, __ATOMIC_RELAXED) & CLUASHIM_INTERRUPT_REQUESTED)) {
            armRunning(watch, watch->step);
        } else if (watch->seenSerial == watch->serial) {
            // At most a few slices: a watchdog that a busy machine kept from running for longer must not
            // charge an honest call for the wait (wall time, not the call's own work).
            long long elapsed = time - watch->firstSeen;
            if (elapsed > HOOKWATCH_MAXIMUM_CHARGED_NS) elapsed = HOOKWATCH_MAXIMUM_CHARGED_NS;
            long long microseconds = elapsed / 1000;
            __atomic_store_n(&watch->charge, microseconds * HOOKWATCH_INSTRUCTIONS_PER_MICROSECOND, __ATOMIC_RELAXED);
            armRunning(watch, watch->step);
        } else {
            watch->seenSerial = watch->serial;
            watch->firstSeen = time;
        }
    }
    unlockWatch(watch);
    return busy;
}

static int lookAtAll(void) {
    long long time = now();
    int busy = 0;
    pthread_mutex_lock(&listLock);
    for (HookWatch *watch = watched; watch != NULL; watch = watch->next) busy |= look(watch, time);
    pthread_mutex_unlock(&listLock);
    return busy;
}

/// Until a post, or until the monotonic instant `until` (0: no limit). A wake that comes early (a signal)
/// only makes the watchdog look one slice sooner.
static void waitForWakeup(long long until) {
    if (until == 0) return wakeup_wait(watchdogWakeup, -1);
    long long left = until - now();
    if (left > 0) wakeup_wait(watchdogWakeup, left);
}

/// Idle this many slices with no call running, the watchdog parks until a call starts.
enum { PARK_AFTER_SLICES = 64 };

static void *watchdog(void *unused) {
    (void)unused;
    int idle = 0;
    for (;;) {
        waitForWakeup(now() + HOOKWATCH_SLICE_NS);
        idle = lookAtAll() ? 0 : idle + 1;
        if (idle < PARK_AFTER_SLICES) continue;
        idle = 0;
        // A call that starts after this store sees it and posts; one that started before is seen below.
        __atomic_store_n(&parked, 1, __ATOMIC_SEQ_CST);
        if (!lookAtAll()) waitForWakeup(0);
        __atomic_store_n(&parked, 0, __ATOMIC_SEQ_CST);
    }
    return NULL;
}

static void startWatchdog(void) {
    watchdogWakeup = malloc(wakeup_size());
    if (watchdogWakeup == NULL) return;   // no watchdog: every call is hooked from its start
    wakeup_init(watchdogWakeup);
    pthread_attr_t attributes;
    if (pthread_attr_init(&attributes) != 0) return;
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    pthread_attr_setstacksize(&attributes, 64 * 1024);
    pthread_t thread;
    if (pthread_create(&thread, &attributes, watchdog, NULL) == 0) __atomic_store_n(&running, 1, __ATOMIC_RELEASE);
    pthread_attr_destroy(&attributes);
}

static void wakeIfParked(void) {
    if (__atomic_load_n(&parked, __ATOMIC_SEQ_CST) && __atomic_exchange_n(&parked, 0, __ATOMIC_SEQ_CST)) {
        wakeup_post(watchdogWakeup);
    }
}

int hookwatch_available(void) { return __atomic_load_n(&running, __ATOMIC_ACQUIRE); }

void cluashim_wakewatchdog(void) {
    if (__atomic_load_n(&running, __ATOMIC_ACQUIRE)) wakeup_post(watchdogWakeup);
}

void hookwatch_register(HookWatch *watch, lua_Hook hook) {
    watch->hook = hook;
    pthread_once(&startOnce, startWatchdog);
    pthread_mutex_lock(&listLock);
    watch->previous = NULL;
    watch->next = watched;
    if (watched != NULL) watched->previous = watch;
    watched = watch;
    pthread_mutex_unlock(&listLock);
}

void hookwatch_unregister(HookWatch *watch) {
    pthread_mutex_lock(&listLock);
    if (watch->previous != NULL) watch->previous->next = watch->next;
    else if (watched == watch) watched = watch->next;
    if (watch->next != NULL) watch->next->previous = watch->previous;
    watch->next = watch->previous = NULL;
    pthread_mutex_unlock(&listLock);
}

