/// Class "numbers and types": values Swift cannot hold, or the library does not expect, in every
/// place that takes a number: the host's (waits, contexts, app options) and the library's.
enum SecondAttackNumbers {
    private static let c = "numbers"

    /// A route whose context holds `value`; the attempt is blocked when it routes or says why not.
    private static func context(_ name: String, _ value: String) -> SecondAttempt {
        SecondAttempt(c, "a context of \(name)", """
            local r, e = portolan.route { "root", { id = "a", context = { v = \(value) } } }
            return r and "routed" or tostring(e)
            """, blocked: "returned")
    }

    static let attempts: [SecondAttempt] = [
        SecondAttempt(c, "a wait of the smallest denormal", "portolan.wait(4.9e-324) return 'waited'", blocked: "returned waited"),
        SecondAttempt(c, "a wait of -0.0", "portolan.wait(-0.0) return 'waited'", blocked: "returned waited"),
        SecondAttempt(c, "a wait of math.maxinteger", "portolan.wait(math.maxinteger)", blocked: "attack.lua:", "portolan.wait expects"),
        SecondAttempt(c, "a wait of math.mininteger", "portolan.wait(math.mininteger)", blocked: "portolan.wait expects"),
        SecondAttempt(c, "a wait just past the bound", "portolan.wait(1e9 + 1)", blocked: "portolan.wait expects"),
        context("NaN", "0/0"),
        context("infinity", "math.huge"),
        context("2^63", "2^63"),
        context("math.mininteger", "math.mininteger"),
        context("a key at math.maxinteger", "{ [math.maxinteger] = 1 }"),
        context("a sparse list reaching 2^40", "{ 1, [2^40] = 2 }"),
        context("a float key", "{ [0.5] = 1, [0/0 ~= 0/0 and 1 or 2] = 2 }"),
        context("a function, a thread and a view", "{ print, coroutine.create(print), string }"),
        SecondAttempt(c, "find with a context of NaN", "return portolan.find('a', { v = 0/0 })", blocked: "returned"),
        SecondAttempt(c, "did_enter with an id of 2^63", "return select(2, pcall(portolan.did_enter, { id = 2^63 }))",
                      blocked: "returned"),
        SecondAttempt(c, "history = math.maxinteger", """
            portolan.app { id = "root", history = math.maxinteger, children = { { id = "a" } } }
            """, blocked: "history must be a whole number"),
        SecondAttempt(c, "max_redirects = 2^53", """
            portolan.app { id = "root", max_redirects = 2^53, children = { { id = "a" } } }
            """, blocked: "max_redirects must be a whole number"),
        SecondAttempt(c, "a URL with a 30-digit number", "local r, e = portolan.route('/' .. string.rep('9', 30)) return tostring(e)",
                      blocked: "returned"),
        SecondAttempt(c, "a URL of 1 MiB", "local r, e = portolan.route('/' .. string.rep('a', 1 << 20)) return tostring(e)",
                      blocked: "returned"),
        SecondAttempt(c, "math.mininteger // -1 and % -1", "return math.mininteger // -1, math.mininteger % -1",
                      blocked: "returned"),
        SecondAttempt(c, "string.rep of math.mininteger", "return #string.rep('x', math.mininteger)", blocked: "returned number 0"),
        SecondAttempt(c, "string.sub over the whole integer range", "return ('abc'):sub(math.mininteger, math.maxinteger)",
                      blocked: "returned abc"),
        SecondAttempt(c, "table.insert at math.maxinteger", "table.insert({}, math.maxinteger, 1)", blocked: "position out of bounds"),
        SecondAttempt(c, "table.move wrapping around", "table.move({}, 1, math.maxinteger, 2)", blocked: "wrap around"),
        SecondAttempt(c, "table.concat over the integer range", "table.concat({}, '', 1, math.maxinteger)", blocked: "invalid value"),
        SecondAttempt(c, "utf8.char past the last code point", "utf8.char(0x80000000)", blocked: "value out of range"),
        SecondAttempt(c, "utf8.offset at math.mininteger", "return utf8.offset('abc', math.mininteger)", blocked: "returned", "out of bounds"),
        SecondAttempt(c, "string.byte over 10 MiB", "string.byte(string.rep('x', 1e7), 1, -1)", blocked: "string slice too long", "instruction budget exceeded"),
        SecondAttempt(c, "select at -1e9", "select(-1e9, 1)", blocked: "index out of range"),
        SecondAttempt(c, "format %d of NaN", "string.format('%d', 0/0)", blocked: "number has no integer representation"),
        SecondAttempt(c, "format with a huge precision", "string.format('%.99999f', 1)", blocked: "invalid conversion"),
        SecondAttempt(c, "collectgarbage step of math.maxinteger", "return collectgarbage('step', math.maxinteger)", blocked: "returned"),
        SecondAttempt(c, "math.random over the whole range", "return math.random(math.mininteger, math.maxinteger)", blocked: "returned"),
    ]
}
