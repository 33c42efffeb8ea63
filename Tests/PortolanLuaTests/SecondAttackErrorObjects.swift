/// Class "error objects": what a handler or observer raises, when it is not a string, or is one too
/// big to print. The route fails with a message the host made, and the host lives on.
enum SecondAttackErrorObjects {
    private static let c = "error objects"

    private static func raised(_ name: String, _ value: String) -> SecondAttempt {
        SecondAttempt(c, "a handler raising \(name)", .handler, "error(\(value))", blocked: "handler_failed")
    }

    static let attempts: [SecondAttempt] = [
        raised("nil", "nil"),
        raised("a coroutine", "coroutine.create(print)"),
        raised("a function", "print"),
        raised("a view", "string"),
        raised("a cyclic table", "(function() local t = {} t.t = t return t end)()"),
        raised("a 10,000-deep table", "(function() local t = {} for _ = 1, 1e4 do t = { t } end return t end)()"),
        raised("a table whose __tostring raises", "setmetatable({}, { __tostring = function() error('inner') end })"),
        raised("a table whose __tostring returns nil", "setmetatable({}, { __tostring = function() return nil end })"),
        raised("a table named portolan.error", "setmetatable({ kind = 'fake' }, { __name = 'portolan.error' })"),
        raised("a table whose __tostring yields", "setmetatable({}, { __tostring = function() coroutine.yield() end })"),
        SecondAttempt(c, "a handler's 10 MiB error, as the script sees it", """
            HANDLER = function() error(string.rep('y', 10 << 20)) end
            local _, e = portolan.route { "root", "x" }
            return #tostring(e) < 100000
            """, blocked: "returned boolean true"),
        SecondAttempt(c, "an observer's 10 MiB error", """
            portolan.on("did_route", function() error(string.rep('y', 10 << 20)) end)
            portolan.route { "root", "a" }
            return 'routed'
            """, blocked: "returned routed"),
        SecondAttempt(c, "a guard's error object whose __index loops", """
            HANDLER = nil
            local once = false
            portolan.intercept(function()
              if once then return end
              once = true
              error(setmetatable({}, { __index = function() while true do end end }))
            end)
            local r, e = portolan.route { "root", "a" }
            return tostring(e)
            """, blocked: "returned"),
    ]
}
