import Testing
@testable import Lua

/// The state's pool of small blocks (`SmallBlockPool.c`): freed blocks are reused, so a state that keeps
/// making and dropping garbage does not grow, and blocks freed in one size class cannot make the pool hold
/// more than the memory limit.
@Suite struct SmallBlockPoolTests {
    /// Tables, closures and strings of every small size, all dropped: with the collector stopped, each round
    /// asks the pool for the same blocks, so a pool that reuses what was freed needs no new chunk.
    static let garbageRound = """
        collectgarbage("stop")
        local kept = {}
        local pads = {}
        for class = 0, 14 do pads[class] = string.rep("x", 1 + class * 16) end
        for i = 1, 20000 do
            kept[i] = { pads[i % 15] .. string.format("%06d", i), function() return i end, { i, i } }
        end
        """

    @Test func freedBlocksAreReusedAndTheHeapStaysFlat() throws {
        let state = try LuaState(sandboxed: false)
        let before = state.smallBlockPoolBytes
        try state.run(Self.garbageRound)
        try state.collectGarbage()
        let afterOneRound = state.smallBlockPoolBytes
        // One round holds some 6 MB of small blocks at its peak: they came from the pool.
        #expect(afterOneRound - before > 4_000_000)
        for _ in 1...30 {
            try state.run(Self.garbageRound)
            try state.collectGarbage()
        }
        #expect(state.smallBlockPoolBytes == afterOneRound)
        #expect(try state.run("return #string.format('%05d', 42)") == [5])
    }

    @Test func blocksFreedInOneClassHoldNoMoreThanTheMemoryLimit() throws {
        let state = try LuaState(sandboxed: false)
        let limit = state.memoryUsed + 8 * 1024 * 1024
        state.memoryLimit = limit
        // 2 MB of strings of one size class at a time, each dropped before the next class: the pool keeps the
        // freed blocks of every class, so without its bound it would hold some 30 MB.
        for blockSize in stride(from: 32, through: 256, by: 16) {
            let length = blockSize - 25   // a string's header and its terminating zero
            try state.run("""
                local kept, pad = {}, string.rep("x", \(length - 6))
                for i = 1, \(2 * 1024 * 1024 / blockSize) do kept[i] = pad .. string.format("%06d", i) end
                """)
            try state.collectGarbage()
        }
        #expect(state.smallBlockPoolBytes <= limit)
        #expect(state.memoryUsed < limit)
        #expect(try state.run("local t = {} for i = 1, 1000 do t[i] = tostring(i) end return #t") == [1000])
    }
}
