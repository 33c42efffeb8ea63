/// A text someone gave Portolan (a URL, a file path) as a message quotes it: whole when short;
/// otherwise its start and its length, `/aaaa…(100000 bytes)`, so that a hostile one cannot flood
/// a log or a terminal. The one rule for every message that echoes such a text.
public enum Excerpt {
    /// The most Unicode scalars of the text a message keeps. Scalars, not characters: one
    /// character can hold any number of combining marks.
    public static let limit = 200

    public static func of(_ text: some StringProtocol) -> String {
        let bytes = text.utf8.count
        guard bytes > limit else { return String(text) }
        let start = text.unicodeScalars.prefix(limit)
        guard start.count == limit, start.endIndex != text.unicodeScalars.endIndex else { return String(text) }
        return String(String.UnicodeScalarView(start)) + "…(\(bytes) bytes)"
    }
}

extension Excerpt {
    /// `text` at most `limit` bytes of UTF-8 (cut at a scalar's boundary), the cut marked with how
    /// much went: `xxxx… (123456 bytes cut)`. The marker comes on top of `limit`. The one rule for
    /// every host-side text made from what a script holds (an event, a failure, a scenario's name),
    /// so that a value Lua's memory cap admits cannot be copied into Swift without bound.
    ///
    /// A text at most `slack` bytes over the limit stays whole: a message cut once and then quoted
    /// by a message with the same limit (a route's failure in a scenario's) is not cut twice.
    public static func cut(_ text: String, toBytes limit: Int) -> String {
        guard text.utf8.count > limit + slack else { return text }
        let (kept, cut) = split(text, atBytes: limit)
        return cut == 0 ? kept : kept + marker(cut: cut)
    }

    /// The first `limit` bytes of `text` or fewer (never inside a scalar), and how many bytes
    /// follow them.
    public static func split(_ text: String, atBytes limit: Int) -> (kept: String, cut: Int) {
        let utf8 = text.utf8
        let bytes = utf8.count
        guard bytes > limit else { return (text, 0) }
        var end = utf8.index(utf8.startIndex, offsetBy: max(0, limit))
        // Back to a scalar's first byte: a cut inside a scalar would leave invalid UTF-8.
        while end > utf8.startIndex, utf8[end] & 0xC0 == 0x80 {
            end = utf8.index(before: end)
        }
        let kept = utf8.distance(from: utf8.startIndex, to: end)
        return (String(decoding: utf8[..<end], as: UTF8.self), bytes - kept)
    }

    /// How far over its limit a text may be and stay whole: a marker and a short prefix.
    public static let slack = 64

    /// What follows a cut text: `… (123456 bytes cut)`.
    public static func marker(cut: Int) -> String {
        "… (\(cut) bytes cut)"
    }
}
