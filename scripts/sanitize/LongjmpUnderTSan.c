// Does ThreadSanitizer follow a longjmp made through glibc's __longjmp_chk? A minimal reproduction, with no
// Lua and no Swift in it.
//
// Why it matters: Debian's liblua5.4 is built with _FORTIFY_SOURCE, so every Lua error (luaD_throw) leaves by
// __longjmp_chk, the checked longjmp, where a plain build would call _longjmp (`objdump -d` of liblua5.4.so.0
// shows one call to __longjmp_chk@plt and one to _setjmp@plt). ThreadSanitizer intercepts _setjmp, setjmp,
// sigsetjmp, longjmp and siglongjmp, but not __longjmp_chk (nor _longjmp). An intercepted longjmp pops, from
// TSan's per-thread shadow stack of return addresses, the entries of the instrumented frames it skips; an
// unintercepted one leaves them there. The shadow stack has room for 65,536 entries (512 KiB, mapped with no
// guard page) and the push does not check its end in release builds of the runtime, so enough skipped frames
// write past it into whatever TSan mapped next: its internal allocator, a slot's journal. The process then
// dies later, somewhere unrelated, in the runtime (a SEGV, a CHECK failure, "nested bug").
//
// Three modes, each on one thread that jumps out of `depth` instrumented frames `rounds` times:
//   longjmp    the intercepted longjmp: the shadow stack is unwound each time; the race report at the end
//              shows the racing write under main only;
//   chk        glibc's __longjmp_chk, a few times (10,000 skipped frames, within the shadow stack): the same
//              race report now shows the write, and the other thread's creation, each under some 250 frames
//              of `deep` that returned long before (`main` reappears every 101 frames);
//   overflow   __longjmp_chk 10,000,000 frames' worth: the shadow stack overflows and TSan dies ("SEGV on
//              unknown address", then "nested bug in the same thread, aborting"), with the exit status that
//              TSAN_OPTIONS' exitcode gives (0 in the script, as in scripts/sanitize.sh).
// Built with -DROUTE_LONGJMP_CHK, the program defines __longjmp_chk as a call of the intercepted longjmp, as
// Sources/CLuaShim/FortifiedLongjmp.c does under ThreadSanitizer: `chk` and `overflow` then behave as `longjmp`.
//
//   bash scripts/sanitize/longjmp-under-tsan.sh        (builds it both ways with -fsanitize=thread, runs it)
#undef _FORTIFY_SOURCE
#include <pthread.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// glibc's checked longjmp, which _FORTIFY_SOURCE substitutes for longjmp and _longjmp in a library's code.
extern void __longjmp_chk(jmp_buf env, int value) __attribute__((noreturn));

#ifdef ROUTE_LONGJMP_CHK
void __longjmp_chk(jmp_buf env, int value) { longjmp(env, value); }
#endif

static jmp_buf landing;
static int checked;
static volatile int sink;

/// `levels` instrumented frames, then a jump back to `landing` over all of them.
__attribute__((noinline)) static void deep(int levels) {
    if (levels == 0) {
        if (checked) __longjmp_chk(landing, 1);
        longjmp(landing, 1);
    }
    deep(levels - 1);
    sink++;   // after the call, so that it is no tail call
}

/// A write that races with the other thread's: TSan reports it with the stack it keeps for this thread.
static volatile int racy;
static int written;   // read and written with relaxed atomics only, which TSan does not take as synchronisation

static void *writeRacy(void *unused) {
    (void)unused;
    racy = 1;
    __atomic_store_n(&written, 1, __ATOMIC_RELAXED);
    return NULL;
}

__attribute__((noinline)) static void raceWithAnotherThread(void) {
    pthread_t other;
    if (pthread_create(&other, NULL, writeRacy, NULL) != 0) abort();
    while (!__atomic_load_n(&written, __ATOMIC_RELAXED)) {}
    racy = 2;
    pthread_join(other, NULL);
}

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "longjmp";
    checked = strcmp(mode, "longjmp") != 0;
    int depth = 100;
    long rounds = strcmp(mode, "overflow") == 0 ? 100000 : 100;
    for (volatile long round = 0; round < rounds; round++) {
        if (setjmp(landing) == 0) deep(depth);
    }
    printf("%s: jumped out of %d frames %ld times\n", mode, depth, rounds);
    fflush(stdout);
    raceWithAnotherThread();
    return 0;
}
