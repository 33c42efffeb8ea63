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
