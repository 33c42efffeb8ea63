/// Text made safe for a CI log: whatever an app, a handler or a scenario wrote, a report that shows
/// it must not give commands to the CI runner reading the log.
///
/// GitHub Actions' runner reads every line a step writes, on standard output or standard error, as
/// a possible workflow command: a line whose first characters but blanks are `::` (`::error …`,
/// `::add-mask::…`, `::stop-commands::…`), and the older form `##[command]…` anywhere in a line
/// (Azure Pipelines reads `##` commands too). So, in every line-oriented report the tools write:
///
/// - a line that would start with `::`, after blanks, shows its first colon as `\u{3A}`;
/// - every `[` that follows `##` shows as `\u{5B}`.
///
/// In the notation the reports already use for a control character (`\u{1B}`), so a person still
/// reads what was written, and in ASCII: the runner matches commands with .NET's culture-aware
/// `StartsWith` / `IndexOf`, which skip zero-width characters, so a zero-width space between the
/// colons would not stop it. For the same reason, characters that such a match ignores (zero-width
/// and other default-ignorable characters, controls) do not separate `:` from `:` or `#` from `[`.
/// JSON, XML and TAP's YAML get the same treatment in their own escapes, which keep what they mean.
public enum CILogText {
    /// How a neutralised character is written.
    public enum Notation: Sendable {
        /// `\u{3A}`, `\u{5B}`: text for people (the text reports, TAP, annotations' messages).
        case text
        /// `\x3A`, `\x5B`: TAP, whose YAML blocks hold double-quoted scalars, where this is the
        /// character's escape (and in a literal block, text for people as `.text` is).
        case yaml
        /// `&#58;`, `&#91;`: the same characters to an XML reader (JUnit).
        case xml
        /// `\u003A`, `\u005B`: the same characters inside a JSON string.
        case json

        func written(_ scalar: Unicode.Scalar) -> String {
            let hex = String(scalar.value, radix: 16, uppercase: true)
            switch self {
            case .text: return "\\u{\(hex)}"
            case .yaml: return "\\x\(hex)"
            case .xml: return "&#\(scalar.value);"
            case .json: return "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            }
        }
    }

    /// `text`, every line of it (a line ends at LF or CR, as the runner reads it), neutralised.
    public static func safe(_ text: String, as notation: Notation = .text) -> String {
        neutralised(text, as: notation, startsLine: true)
    }

    /// Text that goes inside a line after something of the tool's own, such as the message of a
    /// `::error …::` annotation: only `##[` is neutralised, since it never starts the line.
    public static func safeInsideLine(_ text: String, as notation: Notation = .text) -> String {
        neutralised(text, as: notation, startsLine: false)
    }

    private static func neutralised(_ text: String, as notation: Notation, startsLine: Bool) -> String {
        // Fast path: most reports hold neither `::` nor `##`.
        guard text.utf8.contains(UInt8(ascii: ":")) || text.utf8.contains(UInt8(ascii: "#")) else { return text }
        let scalars = Array(text.unicodeScalars)
        var out = String.UnicodeScalarView()
        var atLineStart = startsLine
        // The two last characters that a runner's match would see, most recent last.
        var previous: (Unicode.Scalar?, Unicode.Scalar?) = (nil, nil)
        for (index, scalar) in scalars.enumerated() {
            if scalar == "\n" || scalar == "\r" {
                out.append(scalar)
                atLineStart = true
                previous = (nil, nil)
                continue
            }
            if isTransparent(scalar) || (atLineStart && scalar.properties.isWhitespace) {
                out.append(scalar)
                continue
            }
            if atLineStart, scalar == ":", nextSeen(after: index, in: scalars) == ":" {
                out.append(contentsOf: notation.written(scalar).unicodeScalars)
            } else if scalar == "[", previous == ("#", "#") {
                out.append(contentsOf: notation.written(scalar).unicodeScalars)
            } else {
                out.append(scalar)
            }
            atLineStart = false
            previous = (previous.1, scalar)
        }
        return String(out)
    }

    /// The next character after `index` that a runner's match would see, on the same line.
    private static func nextSeen(after index: Int, in scalars: [Unicode.Scalar]) -> Unicode.Scalar? {
        scalars[(index + 1)...].first { !isTransparent($0) }
    }

    /// Skipped by a culture-aware match: zero-width and other default-ignorable characters, and
    /// controls but the line ends.
    private static func isTransparent(_ scalar: Unicode.Scalar) -> Bool {
        if scalar == "\n" || scalar == "\r" { return false }
        return scalar.properties.isDefaultIgnorableCodePoint || scalar.properties.generalCategory == .control
    }
}
