/// How much of what a script prints a tool keeps: the scenario runner for each scenario, the REPL
/// for each line typed. A chatty loop, or one huge string printed again and again, must not make a
/// tool hold what the Lua state itself could not (its memory is capped); the cuts are marked.
package struct BoundedOutput: Sendable {
    static let lineLimit = 2_000
    static let lineByteLimit = 4_096
    static let byteLimit = 1 << 20

    private(set) var lines = 0
    private(set) var bytes = 0
    /// Whether the output was cut (nothing more is kept).
    private(set) var isCut = false

    package init() {}

    /// What to keep of `line`: the line (cut at `lineByteLimit` bytes, marked), or the marker that
    /// ends the output when a limit is reached, or nil once it was.
    package mutating func admit(_ line: String) -> String? {
        guard !isCut else { return nil }
        let kept = Self.bounded(line)
        if lines >= Self.lineLimit {
            isCut = true
            return "… (output cut after \(Self.lineLimit) lines)"
        }
        if bytes + kept.utf8.count > Self.byteLimit {
            isCut = true
            return "… (output cut after \(Self.byteLimit >> 20) MiB)"
        }
        lines += 1
        bytes += kept.utf8.count
        return kept
    }

    /// A line cut to `lineByteLimit` bytes (at a character boundary), marked when it was.
    private static func bounded(_ line: String) -> String {
        guard line.utf8.count > lineByteLimit else { return line }
        var cut = line.utf8.prefix(lineByteLimit)
        while !cut.isEmpty, String(cut) == nil { cut = cut.dropLast() }
        return (String(cut) ?? "") + "… (line cut at \(lineByteLimit) bytes of \(line.utf8.count))"
    }
}
