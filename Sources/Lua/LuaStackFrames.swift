import CLuaShim

extension LuaState {
    /// The Lua functions on a thread's stack, innermost first, as `source:line` (Lua's short
    /// source names); C functions are left out. Where a suspended coroutine waits, or where a call
    /// that called Swift is.
    static func luaFrames(of thread: OpaquePointer) -> [String] {
        var frames: [String] = []
        var source = [CChar](repeating: 0, count: 128)
        var line: CInt = 0
        var level: CInt = 0
        while true {
            let found = cluashim_frame(thread, level, &source, source.count, &line)
            if found < 0 { break }
            if found > 0 { frames.append("\(String(decoding: source.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)):\(line)") }
            level += 1
        }
        return frames
    }
}
