/// Class "work inside one instruction": C functions of the standard library whose cost grows with
/// their input run inside one VM instruction, where the count hook never looks. Finding 4 names
/// string.rep, table.move, table.sort of strings, utf8.len, table.insert at 1 and a plain find; these
/// are the others. Each does about 500 MB of copying, comparing or collecting in a handler whose
/// budget is 200,000 instructions: charged by its size, it must end at the budget (or the memory cap).
/// Four of them (collections, numeric sort, unpack) end in the Lua loop that builds their input, so
/// they prove less about their C function than the others.
enum SecondAttackUnchargedWork {
    private static let c = "uncharged C work"

    /// An 8 MiB string made in 23 instructions.
    private static let big = "local s = 'x' for _ = 1, 23 do s = s .. s end"

    /// `door` names the C function the attempt's work runs in: each is charged now (ChargedLibrary.c,
    /// the allocator's large growth, `load`), so each attempt must end at the budget or the memory cap.
    private static func work(_ name: String, _ code: String, _ door: String) -> SecondAttempt {
        SecondAttempt(c, name, .handler, code, blocked: "instruction budget exceeded", "not enough memory", "timeout")
    }

    static let attempts: [SecondAttempt] = [
        work("full collections of a big heap", """
            local heap = {} for i = 1, 2e5 do heap[i] = { i } end
            for _ = 1, 200 do collectgarbage() end
            """, "collectgarbage('collect'), O(heap) a call"),
        work("collector steps of a big heap", """
            local heap = {} for i = 1, 2e5 do heap[i] = { i } end
            for _ = 1, 200 do collectgarbage('step', 1e6) end
            """, "collectgarbage('step', n)"),
        work("compiling a big chunk", "local src = string.rep('local a = 1 ', 5e5) for _ = 1, 20 do load(src) end",
             "load() of a long text: the compiler runs unseen"),
        work("upper of 8 MiB", big + " for _ = 1, 64 do s:upper() end", "string.upper"),
        work("reverse of 8 MiB", big + " for _ = 1, 64 do s:reverse() end", "string.reverse"),
        work("sub copying 8 MiB", big + " for i = 1, 64 do s:sub(i) end", "string.sub"),
        work("concatenating 8 MiB", big + " for _ = 1, 64 do local t = s .. 'y' end", "the concatenation operator"),
        work("comparing two 8 MiB strings", big + " local u = s:sub(2) .. 'x' for _ = 1, 64 do local e = (s == u) end",
             "== of long strings (memcmp)"),
        work("ordering two 8 MiB strings", big + " local u = s:sub(2) .. 'y' for _ = 1, 64 do local e = (s < u) end",
             "< of long strings (strcoll)"),
        work("format %s of 8 MiB", big + " for _ = 1, 64 do string.format('%s', s) end", "string.format %s"),
        work("format %q of 4 MiB", "local s = string.rep('\\0', 1 << 22) for _ = 1, 32 do string.format('%q', s) end",
             "string.format %q"),
        work("pack of 8 MiB", big + " for _ = 1, 64 do string.pack('s4', s) end", "string.pack"),
        work("table.concat of a million strings", """
            local t = {} for i = 1, 1e5 do t[i] = 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx' end
            for _ = 1, 100 do table.concat(t) end
            """, "table.concat"),
        work("sorting numbers without a comparator", """
            local t = {} for i = 1, 1e5 do t[i] = (i * 7919) % 100003 end
            for _ = 1, 40 do table.sort(t, nil) t[1], t[#t] = t[#t], t[1] end
            """, "table.sort of numbers"),
        work("unpacking 900,000 values", """
            local t = {} for i = 1, 9e5 do t[i] = i end
            for _ = 1, 60 do select('#', table.unpack(t, 1, 9e5)) end
            """, "table.unpack"),
        work("lower of 8 MiB", big + " for _ = 1, 64 do s:lower() end", "string.lower"),
        work("gsub with a plain replacement string", big + " for _ = 1, 64 do s:gsub('^x', 'y') end",
             "gsub copies the subject's rest uncharged"),
    ]
}
