/// The lines of a Lua chunk typed over several lines, as lua.c gathers them: each line is added
/// to the ones before, and the whole is tried again; a chunk that ends in the middle of a
/// statement (its error ends in `<eof>`, lua.c's `incomplete`) waits for the next line.
///
/// Trying `return CHUNK` first, so that an expression's results come back (lua.c's `addreturn`),
/// is the host's `evaluate`.
struct ChunkAccumulator {
    /// The lines so far.
    private(set) var lines: [String] = []
    /// Why `lines` do not compile yet (`stdin:1: unfinished long string ... near '<eof>'`).
    private(set) var incompleteReason = ""

    /// Whether no line waits: the next line starts a chunk (and may be a shortcut).
    var isEmpty: Bool { lines.isEmpty }

    /// Adds a line and returns the chunk so far, to try.
    mutating func adding(_ line: String) -> String {
        lines.append(line)
        return lines.joined(separator: "\n")
    }

    /// The chunk tried was incomplete: its lines wait for more.
    mutating func keepIncomplete(because reason: String) {
        incompleteReason = reason
    }

    /// The chunk ran, failed, or was dropped: the next line starts afresh.
    mutating func clear() {
        lines = []
    }

    /// Clears the lines at the end of input, returning why they did not compile when some waited.
    mutating func abandon() -> String? {
        guard !lines.isEmpty else { return nil }
        lines = []
        return incompleteReason
    }
}
