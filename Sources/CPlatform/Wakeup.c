// The wake-up (Wakeup.h), two ways chosen at build time (Platform.h).
//
// The Linux path is an unnamed POSIX semaphore, waited on with sem_clockwait on the monotonic clock. Darwin
// has neither: sem_init there fails with ENOSYS, and it has no sem_timedwait. The portable path is a pipe,
// made by the first wait, whose read end a wait polls: write(2) is async-signal-safe, as the post must be
// (LuaInterrupt posts from a SIGINT handler), which rules out a condition variable; poll(2) gives the time
// limit. A post that no wait takes is kept (a byte in the pipe, and a flag), so the next wait returns at
// once and drains every byte: posts made while nobody waited wake one wait, not one each, which callers
// cannot tell from a spurious return.
#include "Platform.h"
#if PORTOLAN_LINUX_PATHS
#define _GNU_SOURCE   // sem_clockwait
#endif
#include "Wakeup.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <time.h>
#include <unistd.h>
#if PORTOLAN_LINUX_PATHS
#include <semaphore.h>
#endif

const char *cplatform_paths(void) { return PORTOLAN_LINUX_PATHS ? "linux" : "portable"; }

/// The longest one wait sleeps: a day, so that no arithmetic below overflows.
static const long long LONGEST_WAIT_NS = 86400LL * 1000000000LL;

#if PORTOLAN_LINUX_PATHS

struct wakeup {
    sem_t semaphore;
};

size_t wakeup_size(void) { return sizeof(struct wakeup); }
void wakeup_init(wakeup *w) { sem_init(&w->semaphore, 0, 0); }
void wakeup_destroy(wakeup *w) { sem_destroy(&w->semaphore); }
const char *wakeup_way(void) { return "semaphore"; }

void wakeup_post(wakeup *w) {
    int saved = errno;
    sem_post(&w->semaphore);
    errno = saved;
}

void wakeup_wait(wakeup *w, long long nanoseconds) {
    if (nanoseconds < 0) {
        while (sem_wait(&w->semaphore) != 0 && errno == EINTR) {}
        return;
    }
    if (nanoseconds > LONGEST_WAIT_NS) nanoseconds = LONGEST_WAIT_NS;
    struct timespec until;
    clock_gettime(CLOCK_MONOTONIC, &until);
    long long total = (long long)until.tv_nsec + nanoseconds % 1000000000LL;
    until.tv_sec += (time_t)(nanoseconds / 1000000000LL + total / 1000000000LL);
    until.tv_nsec = (long)(total % 1000000000LL);
    (void)sem_clockwait(&w->semaphore, CLOCK_MONOTONIC, &until);
}

#else

// The pipe is made by the first wait, not with the wake-up: a wake-up nobody waits on (most hosts never
// wait) holds no descriptor. Two per host that waits is what the portable path costs; Darwin's default limit
// is 256 descriptors a process, and Foundation's Process.run on Linux reads past its buffer when
// /proc/self/fd is long (swift-corelibs-foundation#5472), which a suite of hundreds of live hosts reached.
//
// A post always sets `pending`, then writes a byte if the pipe exists; a wait makes the pipe if it must,
// then takes `pending` before it polls. Every access is sequentially consistent, so a post either sees the
// pipe (and its byte wakes the poll) or sets `pending` before the wait takes it: none is lost.

/// `readEnd` while no wait has made the pipe, and while one is making it.
enum { PIPE_UNMADE = -1, PIPE_BEING_MADE = -2 };

struct wakeup {
    int readEnd;    // atomic: a descriptor, or PIPE_UNMADE / PIPE_BEING_MADE
    int writeEnd;   // atomic: a descriptor once the pipe is made, else -1
    int pending;    // atomic: a post that no wait has taken
};

size_t wakeup_size(void) { return sizeof(struct wakeup); }
const char *wakeup_way(void) { return "pipe"; }

void wakeup_init(wakeup *w) {
    w->readEnd = PIPE_UNMADE;
    w->writeEnd = -1;
    w->pending = 0;
}

void wakeup_destroy(wakeup *w) {
    if (w->readEnd < 0) return;
    close(w->readEnd);
    close(w->writeEnd);
}

void wakeup_post(wakeup *w) {
    int saved = errno;
    __atomic_store_n(&w->pending, 1, __ATOMIC_SEQ_CST);
    int writeEnd = __atomic_load_n(&w->writeEnd, __ATOMIC_SEQ_CST);
    if (writeEnd >= 0) {
        // A full pipe (EAGAIN) already holds a post the wait has not taken: nothing is lost.
        const char byte = 1;
        while (write(writeEnd, &byte, 1) < 0 && errno == EINTR) {}
    }
    errno = saved;
}

/// Non-blocking (a post never blocks on a full pipe; a drain stops when it is empty) and closed on exec.
static int prepare(int descriptor) {
    int flags = fcntl(descriptor, F_GETFL);
    return flags >= 0 && fcntl(descriptor, F_SETFL, flags | O_NONBLOCK) == 0 && fcntl(descriptor, F_SETFD, FD_CLOEXEC) == 0;
}

/// The pipe's read end, made now if no wait made it before; -1 if there is none (no descriptor was left,
/// or another thread is making it): this wait polls, and the next one tries again.
static int readEndMadeIfNeeded(wakeup *w) {
    int readEnd = __atomic_load_n(&w->readEnd, __ATOMIC_SEQ_CST);
    if (readEnd >= 0) return readEnd;
    int unmade = PIPE_UNMADE;
    if (!__atomic_compare_exchange_n(&w->readEnd, &unmade, PIPE_BEING_MADE, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {
        return -1;   // another thread is making it
    }
    int ends[2] = {-1, -1};
    int made = pipe(ends) == 0;
    if (!made || !prepare(ends[0]) || !prepare(ends[1])) {
        if (made) {
            close(ends[0]);
            close(ends[1]);
        }
        __atomic_store_n(&w->readEnd, PIPE_UNMADE, __ATOMIC_SEQ_CST);
        return -1;
    }
    __atomic_store_n(&w->writeEnd, ends[1], __ATOMIC_SEQ_CST);
    __atomic_store_n(&w->readEnd, ends[0], __ATOMIC_SEQ_CST);
    return ends[0];
}

/// Milliseconds for poll, rounded up so that a wait never ends before its limit; -1: none.
static int pollMilliseconds(long long nanoseconds) {
    if (nanoseconds < 0) return -1;
    if (nanoseconds > LONGEST_WAIT_NS) nanoseconds = LONGEST_WAIT_NS;
    long long milliseconds = (nanoseconds + 999999LL) / 1000000LL;
    return milliseconds > INT_MAX ? INT_MAX : (int)milliseconds;
}

/// Without a pipe: slices of at most 5 ms, looking at `pending` after each.
static void waitWithoutPipe(wakeup *w, long long nanoseconds) {
    const long long slice = 5000000LL;
    for (;;) {
        if (__atomic_exchange_n(&w->pending, 0, __ATOMIC_SEQ_CST)) return;
        if (nanoseconds == 0) return;
        long long step = nanoseconds < 0 || nanoseconds > slice ? slice : nanoseconds;
        struct timespec pause = {.tv_sec = 0, .tv_nsec = (long)step};
        if (nanosleep(&pause, NULL) != 0) return;   // a signal: the caller looks again
        if (nanoseconds > 0) nanoseconds -= step;
    }
}

/// Empties the pipe: the posts it holds are taken together (callers cannot tell that from one).
static void drain(int readEnd) {
    char drained[64];
    while (read(readEnd, drained, sizeof drained) > 0) {}
}

void wakeup_wait(wakeup *w, long long nanoseconds) {
    int readEnd = readEndMadeIfNeeded(w);
    if (readEnd < 0) return waitWithoutPipe(w, nanoseconds);
    if (!__atomic_exchange_n(&w->pending, 0, __ATOMIC_SEQ_CST)) {
        struct pollfd readable = {.fd = readEnd, .events = POLLIN, .revents = 0};
        if (poll(&readable, 1, pollMilliseconds(nanoseconds)) <= 0) return;   // the limit, or a signal
        __atomic_store_n(&w->pending, 0, __ATOMIC_SEQ_CST);
    }
    drain(readEnd);
}

#endif
