/// Two lists of lines compared as `diff -u` would show them: `  ` before a line both have, `- `
/// before one only the expected list has, `+ ` before one only the actual list has.
///
/// It is what `expect_events` and `exhaustive()` print, so that a scenario's author sees where the
/// events part ways, not only that they do. Long runs of common lines are folded to their ends.
enum LineDiff {
    /// Common lines kept on each side of a change; a longer run between changes is folded.
    static let context = 3
    /// The most lines shown; the rest is counted.
    static let shownLimit = 200

    /// The diff's lines, or nil when the lists are equal.
    static func lines(expected: [String], actual: [String]) -> [String]? {
        guard expected != actual else { return nil }
        let difference = actual.difference(from: expected)
        var removed = Set<Int>(), inserted = Set<Int>()
        for change in difference {
            switch change {
            case .remove(let offset, _, _): removed.insert(offset)
            case .insert(let offset, _, _): inserted.insert(offset)
            }
        }
        // Walk both lists at once: what the expected list loses at a point comes before what the
        // actual list gains there.
        var marked: [(mark: Character, line: String)] = []
        var old = 0, new = 0
        while old < expected.count || new < actual.count {
            if old < expected.count, removed.contains(old) {
                marked.append(("-", expected[old]))
                old += 1
            } else if new < actual.count, inserted.contains(new) {
                marked.append(("+", actual[new]))
                new += 1
            } else if old < expected.count, new < actual.count {
                marked.append((" ", actual[new]))
                old += 1
                new += 1
            } else {
                break
            }
        }
        return folded(marked)
    }

    /// The marked lines with each run of common lines longer than twice `context` folded.
    private static func folded(_ marked: [(mark: Character, line: String)]) -> [String] {
        var lines: [String] = []
        var index = 0
        while index < marked.count {
            guard marked[index].mark == " " else {
                lines.append("\(marked[index].mark) \(marked[index].line)")
                index += 1
                continue
            }
            var end = index
            while end < marked.count, marked[end].mark == " " { end += 1 }
            let keepBefore = index == 0 ? 0 : context, keepAfter = end == marked.count ? 0 : context
            if end - index > keepBefore + keepAfter + 1 {
                lines += marked[index..<(index + keepBefore)].map { "  " + $0.line }
                lines.append("  … \(end - index - keepBefore - keepAfter) matching")
                lines += marked[(end - keepAfter)..<end].map { "  " + $0.line }
            } else {
                lines += marked[index..<end].map { "  " + $0.line }
            }
            index = end
        }
        guard lines.count > shownLimit else { return lines }
        return Array(lines.prefix(shownLimit)) + ["… \(lines.count - shownLimit) more lines"]
    }
}
