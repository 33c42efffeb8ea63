/// Class "host protocol": a script's main flow talks to the host by yielding a marker and a verb
/// (`portolan.route`, `plan`, `wait`), through the module. A script that yields the marker itself,
/// past the module's checks of its arguments, fails as a yield from Lua's main thread does: to the
/// script its main flow is that thread. The blocked ending is that error, a `nil, err` or an error
/// the script's `pcall` catches, naming the script's line.
enum SecondAttackProtocol {
    private static let c = "host protocol"
    private static let mark = #""\0portolan""#
    /// How a main flow's own yield ends: Lua's error for a yield from its main thread.
    private static let mainThreadYield = "raised attempt to yield from outside a coroutine"

    /// Yields `verb, arguments` as the module does; the script catches what comes back.
    private static func yielding(_ arguments: String) -> String {
        "return tostring((select(2, coroutine.yield(\(mark), \(arguments)))))"
    }

    static let attempts: [SecondAttempt] = [
        SecondAttempt(c, "a raw wait of NaN", yielding("'wait', 0/0"), blocked: mainThreadYield, "raised attack.lua:", "returned portolan.wait expects"),
        SecondAttempt(c, "a raw wait of -1", yielding("'wait', -1"), blocked: mainThreadYield, "raised attack.lua:", "returned portolan.wait expects"),
        SecondAttempt(c, "a raw wait of infinity", yielding("'wait', math.huge"), blocked: mainThreadYield, "raised attack.lua:", "returned portolan.wait expects"),
        SecondAttempt(c, "a raw wait of 1e10 s", yielding("'wait', 1e10"), blocked: mainThreadYield, "raised attack.lua:", "returned portolan.wait expects"),
        SecondAttempt(c, "a raw plan of a cyclic table", "local t = {} t[1] = t " + yielding("'plan', t"),
                      blocked: mainThreadYield, "returned", "raised attack.lua:"),
        SecondAttempt(c, "a raw route of a cyclic table", "local t = {} t[1] = t " + yielding("'route', t"),
                      blocked: mainThreadYield, "returned", "raised attack.lua:"),
        SecondAttempt(c, "a raw route of a 10,000-deep table", """
            local t = {} for i = 1, 10000 do t = { t } end
            \(yielding("'route', t"))
            """, blocked: mainThreadYield, "returned", "raised attack.lua:"),
        SecondAttempt(c, "a raw route whose step raises when read", """
            \(yielding("'route', { 'root', 'a' }, setmetatable({}, { __index = function() error('boom') end })"))
            """, blocked: mainThreadYield, "returned"),
        SecondAttempt(c, "a raw yield of an unknown verb", yielding("'exit', 0"), blocked: mainThreadYield, "returned"),
        SecondAttempt(c, "the marker alone", yielding("nil"), blocked: mainThreadYield, "returned"),
        SecondAttempt(c, "a raw wait of a string", yielding("'wait', '1'"), blocked: mainThreadYield, "returned"),
        SecondAttempt(c, "a raw back with arguments", yielding("'back', { 'root', 'x' }"), blocked: mainThreadYield, "returned"),
        SecondAttempt(c, "a raw refresh from a nested coroutine", """
            return select(2, coroutine.resume(coroutine.create(function() return coroutine.yield(\(mark), 'refresh') end)))
            """, blocked: "returned"),
        SecondAttempt(c, "the marker from a handler's nested coroutine", .handler, """
            coroutine.wrap(function() coroutine.yield("\\0portolan", "wait", 0/0) end)()
            """, blocked: "routed", "handler_failed"),
        SecondAttempt(c, "a raw wait from a handler", .handler, #"coroutine.yield("\0portolan", "wait", -5)"#,
                      blocked: "handler_failed", "only portolan.wait"),
    ]
}
