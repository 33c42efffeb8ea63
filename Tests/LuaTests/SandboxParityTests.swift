import Testing
import TestSupport
@testable import Lua

/// Lua is Lua inside the sandbox (issue 34): a library function the sandbox charges or guards gives the
/// same results and the same messages as liblua5.4's own, with only the bound added. Each case runs in a
/// sandboxed state and in a plain one, whose string, table and coroutine functions are liblua5.4's
/// own, and the two outcomes must be equal, word for word. Before, `table.concat(3)` said "attempt to
/// get length of a number value" with no line, a function called through `pcall` was named '?', and
/// `table.unpack` of 2^26 elements was refused in words of the sandbox's own.
@Suite struct SandboxParityTests {
    static let cases: [String] = [
        // Argument errors, at the script's line, naming the function as its call site does.
        "table.concat(3)", "table.sort(5)", "table.insert(5, 1, 2)", "table.remove(5)", "table.unpack(5)",
        "string.rep()", "string.rep('x', {})", "string.upper()",
        "coroutine.resume(5)", "coroutine.status({})", "coroutine.close(coroutine.running())",
        // Through pcall, where no call site names the function: Lua finds its name in the loaded libraries.
        "return pcall(table.concat, 3)", "return pcall(string.rep)", "return pcall(coroutine.resume, 5)",
        "return pcall(table.insert, {}, 1, 2, 3)",
        // Lua's own refusals of work too large.
        "return table.unpack({}, 1, 1e8)", "return table.unpack({}, 1, 3e6)",
        // The sandbox's own wrappers: setmetatable refuses __gc, rawset a view, load binary chunks.
        "setmetatable(1, {})", "setmetatable({}, 5)", "rawset(1, 2, 3)", "rawset({}, nil, 1)", "load(5)",
        // A script's mode is Lua's: a text chunk under mode "b" is refused in Lua's words, from a reader too.
        "return load('return 1', 'x', 'b')", "return load(string.gmatch('return 1', '.+'), 'x', 'b')",
        "return load('return 1', 'x', 'x')", "return load('return 1', 'x', {})", "return load(3, 'x', 't')",
        "return pcall(setmetatable, 1)", "return pcall(rawset, {})", "collectgarbage('bogus')", "return load('x =')",
        "return type(load('return 1')), collectgarbage('count') > 0",
        // A proxy's __len is called once by each table function, as by liblua5.4's own.
        """
        local calls = 0
        local proxy = setmetatable({}, { __len = function() calls = calls + 1 return 3 end,
          __index = function(_, k) return "v" .. k end, __newindex = function() end })
        local counts = {}
        for _, use in ipairs { table.concat, table.unpack, table.remove, table.sort, function(t) table.insert(t, 1, "x") end } do
          calls = 0
          use(proxy)
          counts[#counts + 1] = calls
        end
        return table.concat(counts, " ")
        """,
        // A huge range meets the first element's metamethod, as in Lua's own sort.lua, not a refusal up front.
        """
        local read, written
        local a = setmetatable({}, { __index = function(_, k) read = k end, __newindex = function(_, k) written = k error() end })
        return pcall(table.move, a, 1, math.maxinteger, 0), read, written
        """,
        "return pcall(table.remove, setmetatable({}, { __len = function() return math.maxinteger end, __index = function() error('read') end, __newindex = print }), 1)",
        "return pcall(table.concat, setmetatable({}, { __index = function(_, i) if i > 3 then error('at ' .. i) end return i end }), ',', 1, math.maxinteger)",
        "local t = { 1, 2, 3, 4, 5 } table.move(t, 1, 4, 2) table.move(t, 3, 5, 1) return table.concat(t, ','), table.move({ 1 }, 1, 1, 1, {}) ~= nil",
        "return pcall(table.insert, {}, 5, 1), pcall(table.remove, {}, 5), pcall(table.move, {}, -1, math.maxinteger, 1)",
        "return pcall(table.move, {}, 1, math.maxinteger, 2), pcall(table.concat, { 1, {} }), pcall(table.insert, {}, 1, 2, 3)",
        // Results.
        "return table.concat({ 1, 2, 'x' }, '-')", "return table.unpack({ 1, 2, 3 }, 2)",
        "local t = { 3, 1, 2 } table.sort(t) return table.concat(t)",
        "local t = { 'a', 'c' } table.insert(t, 2, 'b') return table.concat(t), table.remove(t, 1), #t",
        "return string.rep('ab', 3, ','), ('x'):rep(2)",
        "local co = coroutine.create(function() coroutine.yield(1) end) coroutine.resume(co) return coroutine.status(co), coroutine.close(co), coroutine.status(co)",
    ]

    /// What running `source` as `app.lua` gave: its results as text, or its error's message.
    static func outcome(of source: String, sandboxed: Bool) -> String {
        do {
            let state = try LuaState(sandboxed: sandboxed)
            return "returned " + (try state.run(source, chunkName: "=app.lua")).map(\.description).joined(separator: ", ")
        } catch {
            return "raised " + error.message
        }
    }

    @Test(arguments: cases)
    func aLibraryCallGivesWhatLuasOwnGives(_ source: String) {
        let plain = Self.outcome(of: source, sandboxed: false)
        #expect(Self.outcome(of: source, sandboxed: true) == plain)
        #expect(!plain.contains("'?'"), "the plain state names the function: \(plain)")
    }
}
