/// Class "references": every function that hands a script a reference to something the host or
/// another script owns — metatables of the host's objects, pooled coroutines, the views' raw
/// contents, tables the host returns — and what a script can do with it.
enum SecondAttackReferences {
    private static let c = "references"

    static let attempts: [SecondAttempt] = [
        SecondAttempt(c, "the metatable of portolan.deny()", "return getmetatable(portolan.deny('x'))",
                      blocked: "returned string", "returned boolean", "returned nil", "returned portolan."),
        SecondAttempt(c, "the metatable of portolan.redirect()", "return getmetatable(portolan.redirect('/a'))",
                      blocked: "returned string", "returned boolean", "returned nil", "returned portolan."),
        SecondAttempt(c, "the request's metatable in an interceptor", """
            portolan.intercept(function(request) RQ = getmetatable(request) end)
            portolan.route { "root", "a" }
            return RQ
            """, blocked: "returned string", "returned boolean", "returned nil", "returned portolan."),
        SecondAttempt(c, "the info table's metatable in a handler", .handler, """
            local mt = getmetatable(info)
            if type(mt) == "table" then mt.__index = function() return "forged" end error("got the Info metatable") end
            """, blocked: "routed"),
        SecondAttempt(c, "the metatable of a failed route's error", """
            local _, e = portolan.route({})
            return getmetatable(e)
            """, blocked: "returned string", "returned boolean", "returned nil", "returned portolan."),
        SecondAttempt(c, "next on a view", "return next(string)", blocked: "returned nil"),
        SecondAttempt(c, "rawget through a view", "return rawget(string, 'upper')", blocked: "returned nil"),
        SecondAttempt(c, "rawlen of a view", "return rawlen(math)", blocked: "returned number 0"),
        SecondAttempt(c, "table.unpack of a view", "return select('#', table.unpack(string))", blocked: "returned number 0"),
        SecondAttempt(c, "ipairs over a view", "for _, v in ipairs(utf8) do return v end return 'nothing'",
                      blocked: "returned nothing"),
        SecondAttempt(c, "load with a view as environment writes", #"load("upper = print", "x", "t", string)()"#,
                      blocked: "the string library is read-only"),
        SecondAttempt(c, "the string metatable through a string's __index field", "return ('').__index",
                      blocked: "returned nil"),
        SecondAttempt(c, "metatables of threads, functions, numbers, booleans", """
            return getmetatable(coroutine.running()) or getmetatable(print) or getmetatable(1) or getmetatable(true)
            """, blocked: "returned nil"),
        SecondAttempt(c, "the metatable of portolan.tree()", "return getmetatable(portolan.tree())",
                      blocked: "returned nil", "returned boolean", "returned string"),
        SecondAttempt(c, "the metatable of portolan.history()", "return getmetatable(portolan.history())",
                      blocked: "returned nil"),
        SecondAttempt(c, "active_path is a copy", """
            portolan.route { "root", "a" }
            local path = portolan.active_path() path[2] = "evil"
            return portolan.active_path()[2]
            """, blocked: "returned a"),
        SecondAttempt(c, "a route's result is a copy", """
            local result = portolan.route { "root", "a" } result[1] = "evil"
            return portolan.history()[1].executed[1] ~= "evil"
            """, blocked: "returned boolean true"),
        SecondAttempt(c, "a pooled handler coroutine resumed from a script", """
            HANDLER = function() H = coroutine.running() end
            portolan.route { "root", "x" }
            return select(2, coroutine.resume(H, "forged"))
            """, blocked: "cannot resume dead coroutine"),
        SecondAttempt(c, "a pooled handler coroutine closed, then reused", """
            HANDLER = function() H = coroutine.running() end
            portolan.route { "root", "x" }
            HANDLER = nil
            coroutine.close(H)
            portolan.route { "root", "a" }
            return portolan.route { "root", "x" } and "routed again"
            """, blocked: "returned routed again"),
        SecondAttempt(c, "a handler coroutine kept across a wait", """
            HANDLER = function() H = coroutine.running() portolan.wait(0) end
            portolan.route { "root", "x" }
            return coroutine.status(H)
            """, blocked: "returned dead"),
        SecondAttempt(c, "the script's own coroutine closed from inside", """
            local main = coroutine.running()
            return select(2, pcall(coroutine.wrap(function() return coroutine.close(main) end)))
            """, blocked: "cannot close a normal coroutine", "raised"),
        SecondAttempt(c, "the script's own coroutine resumed from inside", """
            local main = coroutine.running()
            return select(2, coroutine.wrap(function() return coroutine.resume(main) end)())
            """, blocked: "cannot resume non-suspended coroutine"),
        SecondAttempt(c, "an interceptor's request kept and used after its route", """
            portolan.intercept(function(request) KEPT = request end)
            portolan.route { "root", "a" }
            KEPT.destination = { { id = "x" } }
            return portolan.route { "root", "a" } and portolan.active_path()[2]
            """, blocked: "returned a"),
        SecondAttempt(c, "a view passed as a route's context", """
            local r, e = portolan.route { "root", { id = "a", context = string } }
            return r and "routed" or tostring(e)
            """, blocked: "returned"),
    ]
}
