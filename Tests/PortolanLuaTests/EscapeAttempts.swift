/// The attempts of the sandbox suite, by the class of attack they belong to.
enum EscapeAttempts {
    typealias Attempt = SandboxEscapeTests.Attempt

    /// Bytecode (binary chunks skip the compiler's checks and can crash the VM) and every way to
    /// reach a loader of files or C code.
    static let bytecodeAndLoaders: [Attempt] = [
        Attempt("a binary chunk as text", #"return tostring(load("\27LuaT\0\25\147\13\10\26\10"))"#, "returned nil"),
        Attempt("a binary chunk with mode b", #"return select(2, load("\27Lua", "x", "b"))"#, "attempt to load a binary chunk"),
        Attempt("a binary chunk from a reader", """
            local sent = false
            return select(2, load(function() if sent then return nil end sent = true return "\\27Lua" end))
            """, "attempt to load a binary chunk"),
        Attempt("string.dump is gone", "return string.dump", "returned nil"),
        Attempt("bytecode of a builtin", "return load(string.dump(print))", "attempt to call a nil value (field 'dump')"),
        Attempt("require io", #"return require "io""#, "module 'io' not found"),
        Attempt("require os", #"return require "os""#, "module 'os' not found"),
        Attempt("require debug", #"return require "debug""#, "module 'debug' not found"),
        Attempt("require a C module", #"return require "socket.core""#, "module 'socket.core' not found"),
        Attempt("require by a relative path", #"return require "../../etc/passwd""#, "no module file"),
        Attempt("require by an absolute path", #"return require "/etc/passwd""#, "no module file"),
        Attempt("package and its searchers", "return package", "returned nil nil"),
        Attempt("dofile", "return dofile", "returned nil nil"),
        Attempt("loadfile", "return loadfile", "returned nil nil"),
        Attempt("io", "return io", "returned nil nil"),
        Attempt("os", "return os", "returned nil nil"),
        Attempt("debug", "return debug", "returned nil nil"),
        Attempt("portolan.load of /etc/passwd", #"portolan.load("/etc/passwd")"#, "is refused"),
        Attempt("portolan.load of a parent's file", #"portolan.load("../secret.lua")"#, "is refused"),
        Attempt("portolan.load of .env", #"portolan.load(".env")"#, "is refused"),
        Attempt("portolan.load of /proc/self/maps", #"portolan.load("/proc/self/maps")"#, "is refused"),
        Attempt("portolan.load of .. hidden by a combining mark", #"portolan.load("../\u{301}x.lua")"#, "is refused"),
        Attempt("portolan.load of / hidden by a combining mark", #"portolan.load("/\u{338}etc/x.lua")"#, "is refused"),
    ]

    /// Tables every script shares, and their metatables.
    static let sharedTables: [Attempt] = [
        Attempt("the string metatable", #"return getmetatable("")"#, "returned boolean false"),
        Attempt("the string metatable's __index", #"getmetatable("").__index = {}"#, "attempt to index a boolean value"),
        Attempt("setmetatable on a string", #"setmetatable("", {})"#, "table expected, got string"),
        Attempt("string.upper replaced", "string.upper = function() return 'pwned' end", "the string library is read-only"),
        Attempt("rawset into string", "rawset(string, 'upper', print)", "rawset: this table is read-only"),
        Attempt("the metatable of string", "setmetatable(string, nil)", "cannot change a protected metatable"),
        Attempt("portolan.route replaced", "portolan.route = function() end", "the portolan module is read-only"),
        Attempt("rawset into portolan", "rawset(portolan, 'route', print)", "rawset: this table is read-only"),
        Attempt("table.insert into math", "table.insert(math, 1)", "the math library is read-only"),
        Attempt("the module from require", #"require("portolan").app = print"#, "the portolan module is read-only"),
        Attempt("string from require", #"require("string").rep = print"#, "the string library is read-only"),
        Attempt("coroutine.wrap replaced", "coroutine.wrap = print", "the coroutine library is read-only"),
        Attempt("utf8.char replaced", "utf8.char = print", "the utf8 library is read-only"),
        Attempt("the module's metatable", "return getmetatable(portolan)", "returned read-only"),
    ]

    /// `load` with environments, finalizers and to-be-closed variables.
    static let environmentsAndFinalizers: [Attempt] = [
        Attempt("load with _G finds no loader", #"return load("return io or os or debug or package", "x", "t", _G)()"#, "returned nil nil"),
        Attempt("load with an empty environment", #"return load("return string", "x", "t", {})()"#, "returned nil nil"),
        Attempt("load with a borrowed library", #"load("string.upper = nil", "x", "t", { string = string })()"#, "read-only"),
        Attempt("load with an environment over _G", """
            return load("return require 'io'", "x", "t", setmetatable({}, { __index = _G }))()
            """, "module 'io' not found"),
        Attempt("a __gc metamethod", "setmetatable({}, { __gc = function() end })", "__gc metamethods are not allowed"),
        Attempt("a __gc added after setmetatable", """
            local mt = {}
            local t = setmetatable({}, mt)
            mt.__gc = function() GC_RAN = true end
            t = nil
            collectgarbage() collectgarbage()
            return GC_RAN
            """, "returned nil nil"),
        Attempt("a __gc behind __index", """
            local t = setmetatable({}, setmetatable({}, { __index = function() return function() GC_RAN = true end end }))
            t = nil
            collectgarbage() collectgarbage()
            return GC_RAN
            """, "returned nil nil"),
        Attempt("a __close that loops", .handler, """
            local guard <close> = setmetatable({}, { __close = function() while true do end end })
            """, "instruction budget exceeded"),
    ]

    /// Error objects that fight being shown, and coroutines made outside a handler's limits.
    static let errorsAndCoroutines: [Attempt] = [
        Attempt("an error whose __tostring loops", .handler,
                "error(setmetatable({}, { __tostring = function() while true do end end }))", "error object is a table value"),
        Attempt("an error whose __tostring returns a table", .handler,
                "error(setmetatable({}, { __tostring = function() return {} end }))", "error object is a table value"),
        Attempt("an error whose __index loops", .handler,
                "error(setmetatable({}, { __index = function() while true do end end }))", "handler_failed"),
        Attempt("a result whose __tostring loops", .handler,
                "return setmetatable({}, { __tostring = function() while true do end end })", "returned a table"),
        Attempt("a coroutine made while the app loaded", .handler, "coroutine.resume(early)", "instruction budget exceeded"),
        Attempt("a wrapped coroutine made while the app loaded", .handler, "early_wrap()", "instruction budget exceeded"),
        // A handler is, to its script, Lua's main thread: a plain yield fails as it would there.
        Attempt("a plain yield from a handler", .handler, "coroutine.yield()", "attempt to yield from outside a coroutine"),
        Attempt("a coroutine that yields the host's marker", .handler, #"coroutine.yield("\0portolan", "bogus")"#, "handler_failed"),
        Attempt("an error whose __tostring loops, in a script", """
            local ok, e = pcall(error, setmetatable({}, { __tostring = function() while true do end end }))
            return type(e)
            """, "returned table"),
        Attempt("closing the running coroutine", "coroutine.close(coroutine.running())", "cannot close a running coroutine"),
        Attempt("collectgarbage stop", #"collectgarbage("stop")"#, "invalid option 'stop'"),
        Attempt("collectgarbage restart", #"collectgarbage("restart")"#, "invalid option 'restart'"),
        Attempt("collectgarbage generational", #"collectgarbage("generational")"#, "invalid option 'generational'"),
        Attempt("collectgarbage incremental", #"collectgarbage("incremental", 1000)"#, "invalid option 'incremental'"),
        Attempt("collectgarbage setpause", #"collectgarbage("setpause", 1000)"#, "invalid option 'setpause'"),
    ]

    /// Numbers, sizes and depths past what the host takes.
    static let resources: [Attempt] = [
        Attempt("an integer past Swift's", #"return string.format("%d", 2^63)"#, "number has no integer representation"),
        Attempt("a huge string", #"return string.rep("x", 1 << 40)"#, "resulting string too large"),
        Attempt("a huge unpack", "return table.unpack({}, 1, 1e8)", "too many results to unpack"),   // Lua's own refusal, at once
        Attempt("endless recursion", "local function f() return 1 + f() end return f()", "stack overflow"),
        Attempt("an endless loop in a handler", .handler, "while true do end", "instruction budget exceeded"),
        Attempt("memory without bound in a handler", .handler,
                "local s, t = string.rep('x', 1 << 20), {} for i = 1, 1e9 do t[i] = s .. i end", "not enough memory"),
        Attempt("a wait past the limit", "portolan.wait(1e300)", "portolan.wait expects a number of seconds"),
        Attempt("a URL of invalid UTF-8", #"return select(2, portolan.route("/\255"))"#, "not valid UTF-8"),
        Attempt("an app 5,000 levels deep", """
            local node = { id = "n5000" }
            for i = 4999, 1, -1 do node = { id = "n" .. i, children = { node } } end
            portolan.app(node)
            """, "attack.lua:4: node 'n1001' is declared deeper than 1000 levels"),
    ]
}
