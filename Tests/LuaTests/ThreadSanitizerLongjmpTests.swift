import Testing
@testable import Lua
#if canImport(Glibc)
import Glibc
#endif

/// Sources/CLuaShim/ThreadSanitizerLongjmp.c: under ThreadSanitizer, the longjmp of every Lua error goes
/// through TSan, which then forgets the instrumented frames it skips. Before, liblua5.4's `__longjmp_chk`
/// went around it, each error raised from the shim's C left its frames on TSan's shadow stack, and a thread
/// that raised enough of them overflowed it: `scripts/sanitize.sh thread` died inside the TSan runtime.
@Suite struct ThreadSanitizerLongjmpTests {
    /// Whether this process runs under ThreadSanitizer: its runtime is then linked into the executable.
    static let underThreadSanitizer = dlsym(nil, "__tsan_init") != nil

    /// Twenty thousand "pattern too complex" errors on one thread, each raised 200 continuations deep in the
    /// pattern matcher, so each skips some 400 instrumented frames. Under ThreadSanitizer before the fix this
    /// left about eight million frames on a shadow stack of 65,536: the process died at once. Anywhere, each
    /// error is that one, and the state goes on.
    @Test func manyErrorsRaisedDeepInTheShimLeaveTheStateSound() throws {
        let state = try LuaState()
        let results = try state.run("""
            local subject, pattern = string.rep("a", 250), string.rep("a?", 250)
            local tooComplex = 0
            for _ = 1, 20000 do
              local ok, message = pcall(string.find, subject, pattern)
              if not ok and string.find(message, "pattern too complex", 1, true) then tooComplex = tooComplex + 1 end
            end
            return tooComplex, string.find(subject, string.rep("a?", 150))
            """)
        try #require(results.count == 3)
        #expect(results[0] == 20_000)
        #expect(results[1] == 1)
        #expect(results[2] == 150)
    }

    /// The `__longjmp_chk` that liblua5.4 and libedit call, found as the dynamic linker finds it (the first
    /// definition in the process's global scope), is the shim's, not glibc's own.
    @Test(.enabled(if: underThreadSanitizer, "only a ThreadSanitizer build defines it"))
    func luasLongjmpIsTheShimsUnderThreadSanitizer() throws {
        let found = try #require(dlsym(nil, "__longjmp_chk"))
        let glibc = try #require(dlopen("libc.so.6", RTLD_LAZY | RTLD_NOLOAD))
        defer { dlclose(glibc) }
        let glibcs = try #require(dlsym(glibc, "__longjmp_chk"))
        #expect(found != glibcs)
    }
}
