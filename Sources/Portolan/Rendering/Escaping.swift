/// Escaping for the text formats Portolan writes (the renderers, JUnit, the coverage page, lint
/// JSON). Each function is injective, so distinct ids stay distinct after escaping.
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
            default: out.unicodeScalars.append(scalar)
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

    static func hex(_ value: UInt32, width: Int) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
