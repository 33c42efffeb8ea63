/// Escaping for the text formats Portolan writes (the renderers, JUnit, the coverage page, lint
/// JSON). Each function is injective, so distinct ids stay distinct after escaping, but for the
/// control characters DOT has no escape for, which it shows as `\u{00}` rather than write raw.
public enum Escaping {
    /// XML or HTML character data and attribute values (either quote). Characters XML 1.0 forbids
    /// (most C0 controls, U+FFFE/U+FFFF) become U+FFFD: they cannot appear even as references.
    public static func xml(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\t", "\n", "\r": out += "&#\(scalar.value);"
            default:
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF {
                    out.unicodeScalars.append("\u{FFFD}")
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    /// A JSON string literal, quotes included. Control characters are written `\u00XX`; U+2028 and
    /// U+2029 too, so the output can be pasted into a `<script>` as it is.
    public static func jsonString(_ text: String) -> String {
        var out = "\""
        out.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || scalar.value == 0x2028 || scalar.value == 0x2029 {
                    out += "\\u" + hex(scalar.value, width: 4)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    /// A DOT quoted string, quotes included: `"` and `\` escaped, line breaks as DOT's `\n` / `\r`
    /// so every statement stays on one line.
    static func dotString(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            default:
                // Other controls (a NUL, an escape) shown, never written raw into the file.
                out += isControl(scalar) ? "\\\\u{" + hex(scalar.value, width: 2) + "}" : String(scalar)
            }
        }
        return out + "\""
    }

    /// Text inside a Mermaid quoted label (`["…"]`). Mermaid reads `#name;` / `#123;` entities and
    /// renders labels as HTML, so markup characters, quotes, `#` and controls become entities.
    static func mermaid(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "#quot;"
            case "&": out += "#amp;"
            case "<": out += "#lt;"
            case ">": out += "#gt;"
            case "#", "`":
                out += "#\(scalar.value);"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    out += "#\(scalar.value);"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    /// The message of a GitHub Actions workflow command (`::error …::message`): `%`, CR and LF
    /// percent-encoded as the runner decodes them, other controls shown as `\u{1B}`.
    public static func githubMessage(_ text: String) -> String {
        visibleControls(githubEncoded(text, also: []))
    }

    /// A property value of a workflow command (`file=`, `title=`): as a message, and `:` and `,`
    /// encoded too, since they end a property.
    public static func githubProperty(_ text: String) -> String {
        visibleControls(githubEncoded(text, also: [":", ","]))
    }

    private static func githubEncoded(_ text: String, also extra: Set<Unicode.Scalar>) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            if scalar == "%" || scalar == "\r" || scalar == "\n" || extra.contains(scalar) {
                out += "%" + hex(scalar.value, width: 2)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Text for a line-based report (TAP, the linter's and the runner's text): control characters
    /// other than those in `kept` are shown as `\u{1B}` instead of written raw, so a name cannot
    /// end a line, ring a bell or drive the terminal. For people to read, not to parse back.
    public static func visibleControls(_ text: String, keeping kept: Set<Unicode.Scalar> = []) -> String {
        guard text.unicodeScalars.contains(where: { isControl($0) && !kept.contains($0) }) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            if isControl(scalar) && !kept.contains(scalar) {
                out += "\\u{" + hex(scalar.value, width: 2) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// C0 and C1 controls and DEL.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    static func hex(_ value: UInt32, width: Int) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
