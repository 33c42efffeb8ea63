/// Class "depth": recursion that C drives (metamethods called by the VM or the library), chains,
/// and source text nested past what the compiler takes. Each must end in an error at the script,
/// never in a crash of the process.
enum SecondAttackRecursion {
    private static let c = "depth"
    private static let deep = ["C stack overflow", "stack overflow", "chain too long", "too many", "budget", "not enough memory"]

    private static func recursion(_ name: String, _ metamethod: String, _ body: String, _ trigger: String) -> SecondAttempt {
        SecondAttempt(c, name, """
            local mt = {} mt.\(metamethod) = function(a, b) \(body) end
            local a, b = setmetatable({}, mt), setmetatable({}, mt)
            return \(trigger)
            """, blocked: deep[0], deep[1], deep[4])
    }

    static let attempts: [SecondAttempt] = [
        recursion("__index calling itself", "__index", "return a[b]", "a.x"),
        recursion("__newindex calling itself", "__newindex", "a[b] = 1", "(function() a.x = 1 end)()"),
        recursion("__eq calling itself", "__eq", "return a == b", "a == b"),
        recursion("__lt calling itself", "__lt", "return a < b", "a < b"),
        recursion("__le calling itself", "__le", "return a <= b", "a <= b"),
        recursion("__concat calling itself", "__concat", "return a .. b", "a .. b"),
        recursion("__call calling itself", "__call", "return a()", "a()"),
        recursion("__len calling itself", "__len", "return #a", "#a"),
        recursion("__unm calling itself", "__unm", "return -a", "-a"),
        recursion("__tostring calling itself", "__tostring", "return tostring(a)", "tostring(a)"),
        recursion("__pairs calling itself", "__pairs", "return pairs(a)", "pairs(a)"),
        recursion("__close calling itself", "__close", "local x <close> = a", "(function() local y <close> = a end)()"),
        recursion("__lt through table.sort", "__lt", "return a < b", "table.sort({ a, b, a, b, a, b })"),
        SecondAttempt(c, "an __index chain of 100,000 tables", """
            local t = {} for _ = 1, 1e5 do t = setmetatable({}, { __index = t }) end return t.x
            """, blocked: deep[2], "instruction budget exceeded"),
        SecondAttempt(c, "gsub's replacement calling gsub", """
            local function f(m) return (m:gsub('x', f)) end return (('x'):gsub('x', f))
            """, blocked: deep[0], deep[1]),
        SecondAttempt(c, "coroutines nested a million deep", """
            local function f(n) if n == 0 then return 0 end return coroutine.wrap(f)(n - 1) end return f(1e6)
            """, blocked: deep[0], deep[1], deep[5], "raised attack.lua:2: attack.lua:2:"),
        SecondAttempt(c, "parentheses 100,000 deep", "return select(2, load(string.rep('(', 1e5) .. '1' .. string.rep(')', 1e5)))",
                      blocked: deep[0]),
        SecondAttempt(c, "table constructors 100,000 deep", "return select(2, load('return ' .. string.rep('{', 1e5) .. string.rep('}', 1e5)))",
                      blocked: deep[0]),
        SecondAttempt(c, "100,000 unary minuses", "return select(2, load('return ' .. string.rep('- ', 1e5) .. '1'))",
                      blocked: deep[0]),
        SecondAttempt(c, "a concatenation of 100,000 terms", "return select(2, load('return ' .. string.rep('a .. ', 1e5) .. 'a'))",
                      blocked: deep[0], "too many registers"),
        SecondAttempt(c, "functions nested 10,000 deep", """
            return select(2, load(string.rep('return function() ', 1e4) .. string.rep(' end', 1e4)))
            """, blocked: deep[0], "too many"),
        SecondAttempt(c, "300 locals", "return select(2, load(string.rep('local a ', 300)))", blocked: "too many local variables"),
        SecondAttempt(c, "300 upvalues", """
            local names = {} for i = 1, 150 do names[i] = 'a' .. i end
            local list = table.concat(names, ', ')
            local src = 'local ' .. list .. ' local ' .. list:gsub('a', 'b') .. ' return function() return '
              .. list .. ', ' .. list:gsub('a', 'b') .. ' end'
            return select(2, load(src))
            """, blocked: "too many upvalues", "too many local variables"),
        SecondAttempt(c, "a deep table printed by the REPL's printer", .handler, """
            local t = {} for _ = 1, 1e5 do t = { t } end
            print(t)
            """, blocked: "routed", "instruction budget exceeded"),
    ]
}
