/// The second attack's classes (issue 18), each tried by more than its one reported example.
extension EscapeAttempts {
    /// Finding 1: every way a read-only view could hand out the table it shows.
    static let viewReferences: [Attempt] = ["string", "table", "math", "utf8", "coroutine", "portolan"].flatMap { name in
        [
            Attempt("pairs(\(name)) hands out the view", """
                local _, state = pairs(\(name))
                return rawequal(state, \(name))
                """, "returned boolean true"),
            Attempt("a write through pairs(\(name))'s state", """
                local _, state = pairs(\(name))
                for key in pairs(\(name)) do state[key] = print end
                """, "is read-only"),
            Attempt("rawset through pairs(\(name))'s state", """
                local _, state = pairs(\(name))
                rawset(state, "x", 1)
                """, "rawset: this table is read-only"),
        ]
    } + [
        Attempt("the pairs iterator given another table", """
            local iterate = pairs(string)
            local key = iterate({ [1] = "mine" }, nil)
            return type(string[key])
            """, "returned function"),
        Attempt("next on a view", "return next(string)", "returned nil nil"),
        Attempt("rawget on a view", "return rawget(portolan, 'route')", "returned nil nil"),
        Attempt("rawlen on a view", "return rawlen(table)", "returned number 0"),
        Attempt("ipairs over a view", "for _, v in ipairs(portolan) do return v end return 'none'", "returned none"),
        // Save `portolan.state`, the app's own data, which the host reads and writes only raw.
        Attempt("no table behind the module's fields", """
            for key, value in pairs(portolan) do
              if type(value) == "table" and key ~= "state" then return key end
            end
            return "none"
            """, "returned none"),
    ]

    /// Finding 2: what the app could rebind or reach to fake a route's result or how an error shows.
    static let hostChunkGlobals: [Attempt] = [
        Attempt("coroutine rebound before a route", """
            coroutine = { running = function() end, yield = function() return true, { "faked" } end }
            local done = portolan.route { "root", "a" }
            return done[1]
            """, "returned enter a"),
        Attempt("table, select and tostring rebound before a route", """
            local saved = { table, select, tostring }
            table = {} select = function() return 0 end tostring = function() return "faked" end
            local _, err = portolan.route { "root", "nowhere" }
            table, select, tostring = saved[1], saved[2], saved[3]
            return err.kind
            """, "returned unreachable"),
        Attempt("setmetatable and type rebound before a deny", """
            local saved = { setmetatable, type }
            setmetatable = function(t) return t end type = function() return "table" end
            local reason = portolan.deny("no").reason
            setmetatable, type = saved[1], saved[2]
            return reason
            """, "returned no"),
        Attempt("the error object's metatable", """
            local _, err = portolan.route { "root", "nowhere" }
            return getmetatable(err)
            """, "returned portolan.error"),
        Attempt("the error object's metatable replaced", """
            local _, err = portolan.route { "root", "nowhere" }
            setmetatable(err, { __tostring = function() return "all good" end })
            """, "cannot change a protected metatable"),
        Attempt("the error class through __index", """
            local _, err = portolan.route { "root", "nowhere" }
            return err.__index
            """, "returned nil nil"),
        Attempt("a deny's metatable", #"return getmetatable(portolan.deny("x"))"#, "returned portolan.deny"),
        Attempt("a redirect's metatable", #"return getmetatable(portolan.redirect({ "root", "a" }))"#, "returned portolan.redirect"),
        Attempt("the scenario library from an app", "return tostring(skip) .. tostring(expect_events) .. tostring(scenario)", "returned nilnilnil"),
    ]

    /// Finding 4: C library calls that ran past every limit inside one instruction, and a handler
    /// busy past its time limit.
    static let chargedCalls: [Attempt] = [
        Attempt("string.rep of nothing, maxinteger times", .handler, #"local s = string.rep("", math.maxinteger) assert(s == "")"#, "routed"),
        Attempt("string.rep with an empty separator", .handler, #"string.rep("", math.maxinteger, "")"#, "routed"),
        Attempt("table.move over a huge range", .handler, "table.move({}, 1, math.maxinteger, 1, {})", "instruction budget exceeded"),
        Attempt("table.move in a loop", .handler, "local t = {} for i = 1, 1e9 do table.move(t, 1, 1e7, 2) end", "instruction budget exceeded"),
        Attempt("utf8.len of 16 MiB in a loop", .handler, #"local s = ("a"):rep(1 << 24) for _ = 1, 1e6 do utf8.len(s) end"#,
                "instruction budget exceeded"),
        Attempt("table.insert at 1 on a million items", .handler, """
            local t = {} for i = 1, 1e6 do t[i] = i end
            for i = 1, 1e6 do table.insert(t, 1, i) end
            """, "instruction budget exceeded"),
        Attempt("table.remove at 1 on a million items", .handler, """
            local t = {} for i = 1, 1e6 do t[i] = i end
            for _ = 1, 1e6 do table.remove(t, 1) t[#t + 1] = 0 end
            """, "instruction budget exceeded"),
        Attempt("a __len that lies to table.insert", .handler,
                "table.insert(setmetatable({}, { __len = function() return 1 << 40 end }), 1, 1)", "instruction budget exceeded"),
        Attempt("table.concat of a list a C function fills", .handler,
                #"table.concat(setmetatable({}, { __index = rawlen }), "", 1, math.maxinteger)"#, "instruction budget exceeded"),
        Attempt("table.sort with a C comparator", .handler, """
            local t = {} for i = 1, 2e5 do t[i] = i end
            for _ = 1, 1e6 do table.sort(t, rawequal) end
            """, "instruction budget exceeded"),
        Attempt("table.sort of large strings", .handler, """
            local t, big = {}, ("a"):rep(1 << 16)
            for i = 1, 1500 do t[i] = big .. (i % 97) end
            table.sort(t)
            """, "instruction budget exceeded"),
        Attempt("a plain find that skips 16 MiB", .handler, #"local s = ("a"):rep(1 << 24) for _ = 1, 1e6 do s:find("b", 1, true) end"#,
                "instruction budget exceeded"),
        Attempt("string.upper of 16 MiB in a loop", .handler, #"local s = ("a"):rep(1 << 24) for _ = 1, 1e6 do s:upper() end"#,
                "instruction budget exceeded"),
        Attempt("table.concat of a million items in a loop", .handler, """
            local t = {} for i = 1, 1e6 do t[i] = "x" end
            for _ = 1, 1e6 do table.concat(t) end
            """, "instruction budget exceeded"),
        Attempt("table.unpack in a loop", .handler, """
            local t = {} for i = 1, 1e5 do t[i] = i end
            for _ = 1, 1e6 do select("#", table.unpack(t)) end
            """, "instruction budget exceeded"),
        Attempt("full collections in a loop", .handler, """
            local keep = {} for i = 1, 1e5 do keep[i] = { i } end
            for _ = 1, 1e6 do collectgarbage() end
            """, "instruction budget exceeded"),
        Attempt("load of a large text in a loop", .handler, """
            local text = ("local x = 1 "):rep(1e5)
            for _ = 1, 1e6 do load(text) end
            """, "instruction budget exceeded"),
        Attempt("the limit error keeps its line under sort", .handler, """
            local t, big = {}, ("a"):rep(1 << 16)
            for i = 1, 1500 do t[i] = big .. (i % 97) end
            table.sort(t)
            """, "app.lua:"),
    ]

    /// Finding 11: destinations that cannot cross to Swift are an `invalid` route, not an error
    /// that ends the script.
    static let unconvertibleDestinations: [Attempt] = [
        Attempt("a cyclic context", """
            local c = {} c.self = c
            local ok, done, err = pcall(portolan.route, { "root", { id = "a", context = c } })
            return tostring(ok) .. " " .. tostring(done) .. " " .. err.kind
            """, "returned true nil invalid"),
        Attempt("a 1,000-deep context", """
            local d = {} local at = d for _ = 1, 1000 do at.x = {} at = at.x end
            local ok, done, err = pcall(portolan.route, { "root", { id = "a", context = d } })
            return tostring(ok) .. " " .. tostring(done) .. " " .. err.kind
            """, "returned true nil invalid"),
        Attempt("a 100,000-deep destination", """
            local d = {} local at = d for _ = 1, 100000 do at[1] = {} at = at[1] end
            local _, err = portolan.route(d)
            return err.kind
            """, "returned invalid"),
        Attempt("a cyclic destination list", """
            local d = { "root" } d[2] = d
            local _, err = portolan.route(d)
            return err.kind
            """, "returned invalid"),
        Attempt("a cyclic context queued by a handler", .handler, """
            local c = {} c.self = c
            local done, err = portolan.route { "root", { id = "a", context = c } }
            assert(done == nil and err.kind == "invalid", tostring(err))
            """, "routed"),
        Attempt("a cyclic plan", """
            local c = {} c.self = c
            local _, err = portolan.plan { "root", { id = "a", context = c } }
            return err.kind
            """, "returned invalid"),
    ]
}
