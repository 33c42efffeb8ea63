// Only in a ThreadSanitizer build (scripts/sanitize.sh thread): lets TSan see the longjmp of every Lua error.
//
// Debian's liblua5.4 is built with _FORTIFY_SOURCE, so luaD_throw leaves by glibc's checked longjmp,
// __longjmp_chk, which TSan does not intercept (it intercepts _setjmp, which luaD_rawrunprotected calls, and
// longjmp and siglongjmp). TSan keeps a shadow stack of the instrumented frames each thread is in; a longjmp it
// intercepts pops the frames it skips, one it does not leaves them pushed. A Lua error raised from the shim's C
// (luaL_error in the pattern matcher, the charged library, the instruction budget's hook) skips instrumented
// frames, so each left a few, up to several hundred from deep in the pattern matcher. The shadow stack holds
// 65,536 and is not bounds-checked, so a thread that raised enough errors wrote past it into TSan's own memory,
// and the test process died later, somewhere unrelated, inside the runtime (a SEGV, a CHECK failure, "nested
// bug in the same thread"). scripts/sanitize/longjmp-under-tsan.sh reproduces it without Lua or Swift;
// CONTRIBUTING.md ("Sanitizers") tells the story.
//
// Defined here, __longjmp_chk takes the place of glibc's for liblua5.4 and libedit (whose readline also leaves
// by it), as any symbol of the executable does: it calls longjmp, which in this build is TSan's interceptor, so
// the skipped frames are popped before glibc's longjmp jumps. It only drops glibc's check that the jump goes up
// the stack, which a sanitizer build can do without. Other builds compile nothing here.
#undef _FORTIFY_SOURCE   // so that the longjmp below is longjmp, not this function again

#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#include <setjmp.h>

void __longjmp_chk(jmp_buf environment, int value) __attribute__((noreturn));

void __longjmp_chk(jmp_buf environment, int value) { longjmp(environment, value); }
#endif
#endif
