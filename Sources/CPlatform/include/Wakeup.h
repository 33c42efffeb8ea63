// A wake-up that any thread, or a signal handler, posts and one thread waits on with a time limit
// (Wakeup.c). The engine's Wakeup, LuaInterrupt's post and the count hook's watchdog all use it.
#ifndef CPLATFORM_WAKEUP_H
#define CPLATFORM_WAKEUP_H

#include <stddef.h>

typedef struct wakeup wakeup;

/// The bytes a wake-up takes; the caller allocates them (aligned as malloc aligns) and calls wakeup_init.
size_t wakeup_size(void);

/// Makes a wake-up in `storage`. It never fails: where the system has no room for one (no descriptor left),
/// waits poll every few milliseconds instead of sleeping until a post.
void wakeup_init(wakeup *storage);

/// Releases what wakeup_init took; the storage stays the caller's.
void wakeup_destroy(wakeup *w);

/// Wakes the wait, or the next one if none waits now. Async-signal-safe, and keeps errno.
void wakeup_post(wakeup *w);

/// Sleeps until a post or for at most `nanoseconds` (< 0: no limit). A post made before the call wakes it at
/// once. It may also return early (a signal): callers look again at why they wait, and wait again.
void wakeup_wait(wakeup *w, long long nanoseconds);

/// "semaphore" (Linux's unnamed semaphore, the Linux path) or "pipe" (the portable path): what this build's
/// wake-ups are made of.
const char *wakeup_way(void);

#endif
