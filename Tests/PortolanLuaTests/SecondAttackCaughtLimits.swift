/// Class "a limit's error caught": once a limit trips, the script must not be able to carry on by
/// catching the error — with pcall, xpcall's message handler, a to-be-closed variable, a coroutine,
/// or a metamethod or callback that C calls.
enum SecondAttackCaughtLimits {
    private static let c = "caught limit"
    private static let loop = "while true do end"
    private static let stopped = ["instruction budget exceeded", "interrupted", "timeout", "error in error handling"]

    static let attempts: [SecondAttempt] = [
        SecondAttempt(c, "pcall around an endless loop, in a loop", .handler,
                      "for _ = 1, 1e6 do pcall(function() \(loop) end) end", blocked: "instruction budget exceeded"),
        SecondAttempt(c, "xpcall whose message handler loops", .handler,
                      "xpcall(error, function() \(loop) end)", blocked: "instruction budget exceeded", "error in error handling"),
        SecondAttempt(c, "xpcall whose message handler loops, in a script", "xpcall(error, function() \(loop) end)",
                      blocked: "instruction budget exceeded", "error in error handling"),
        SecondAttempt(c, "xpcall whose message handler raises", .handler,
                      "local h h = function(m) error(m) end xpcall(error, h) \(loop)", blocked: stopped[0], stopped[3]),
        SecondAttempt(c, "xpcall whose message handler catches the budget with pcall", .handler,
                      "xpcall(function() \(loop) end, function() for _ = 1, 1e6 do pcall(function() \(loop) end) end end)",
                      blocked: stopped[0], stopped[3]),
        SecondAttempt(c, "a __close that catches the budget", .handler, """
            local guard <close> = setmetatable({}, { __close = function() for _ = 1, 1e6 do pcall(function() \(loop) end) end end })
            \(loop)
            """, blocked: "instruction budget exceeded"),
        SecondAttempt(c, "a coroutine resumed again after its budget error", .handler, """
            for _ = 1, 1e6 do coroutine.resume(coroutine.create(function() \(loop) end)) end
            """, blocked: "instruction budget exceeded"),
        SecondAttempt(c, "coroutine.wrap inside pcall, in a loop", .handler,
                      "for _ = 1, 1e6 do pcall(coroutine.wrap(function() \(loop) end)) end", blocked: "instruction budget exceeded"),
        SecondAttempt(c, "a sort comparator that catches the budget", .handler, """
            local t = {} for i = 1, 1000 do t[i] = -i end
            table.sort(t, function(a, b) pcall(function() \(loop) end) return a < b end)
            """, blocked: "instruction budget exceeded", "invalid order function"),
        SecondAttempt(c, "gsub's replacement function catches the budget", .handler,
                      "string.rep('x', 1e6):gsub('x', function() pcall(function() \(loop) end) end)",
                      blocked: "instruction budget exceeded"),
        SecondAttempt(c, "an __index called from table.concat catches the budget", .handler, """
            local t = setmetatable({}, { __index = function() pcall(function() \(loop) end) return 'x' end })
            table.concat(t, '', 1, 1e6)
            """, blocked: "instruction budget exceeded"),
        SecondAttempt(c, "a __tostring that catches the budget", .handler, """
            local v = setmetatable({}, { __tostring = function() pcall(function() \(loop) end) return 'x' end })
            for _ = 1, 1e6 do tostring(v) end
            """, blocked: "instruction budget exceeded"),
        SecondAttempt(c, "load with a reader that catches the budget", .handler, """
            load(function() pcall(function() \(loop) end) return ' ' end)
            """, blocked: "instruction budget exceeded"),
        SecondAttempt(c, "the budget error re-raised as a string and caught", .handler, """
            for _ = 1, 1e6 do local ok, e = pcall(function() \(loop) end) pcall(error, e) end
            """, blocked: "instruction budget exceeded"),
        SecondAttempt(c, "an observer catching the budget", .handler, """
            portolan.on("did_route", function() for _ = 1, 1e6 do pcall(function() \(loop) end) end end)
            """, blocked: "routed"),
    ]
}
