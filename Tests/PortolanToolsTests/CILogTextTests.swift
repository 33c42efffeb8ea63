@testable import PortolanTools
import Testing
@testable import PortolanShipping

/// `CILogText`, the one definition of a line safe in a CI log (issue 18, finding 8).
@Suite struct CILogTextTests {
    @Test func aLeadingDoubleColonShowsItsFirstColonEscaped() {
        #expect(CILogText.safe("::error file=x::pwned") == #"\u{3A}:error file=x::pwned"#)
        #expect(CILogText.safe("ok\n  \t::add-mask::x\r::warning::y") == "ok\n  \t\\u{3A}:add-mask::x\r\\u{3A}:warning::y")
        // Zero-width characters are no separation for a culture-aware match.
        #expect(CILogText.safe("\u{200B}:\u{FEFF}:x") == "\u{200B}\\u{3A}\u{FEFF}:x")
        // Not at the start of a line: text as it was.
        #expect(CILogText.safe("a ::b") == "a ::b")
        #expect(CILogText.safe(": :x") == ": :x")
        #expect(CILogText.safeInsideLine("::x") == "::x")
    }

    @Test func everyLegacyCommandIsBroken() {
        #expect(CILogText.safe("a ##[error]b ###[x] #\u{200B}#[y]") == #"a ##\u{5B}error]b ###\u{5B}x] #"# + "\u{200B}" + #"#\u{5B}y]"#)
        #expect(CILogText.safeInsideLine("m ##[error]") == #"m ##\u{5B}error]"#)
        #expect(CILogText.safe("# #[ #[ ##") == "# #[ #[ ##")
    }

    @Test func xmlAndJSONKeepWhatTheTextMeans() {
        #expect(CILogText.safe("<a>##[x]</a>", as: .xml) == "<a>##&#91;x]</a>")
        #expect(CILogText.safe("::x", as: .xml) == "&#58;:x")
        #expect(CILogText.safe("\"##[x]\"", as: .json) == "\"##\\u005Bx]\"")
        #expect(CILogText.safe("  - \"##[x]\"\n  ::y", as: .yaml) == "  - \"##\\x5Bx]\"\n  \\x3A:y")
    }

    @Test func nothingIsLeftToMatch() {
        for text in ["::a", "##[b", "  ::c\n##[d", "#\u{0}#[e", "\u{200D}::f", "##[[##[", ":\u{1B}:g"] {
            for line in CILogText.safe(text).split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r" }) {
                let seen = String(String.UnicodeScalarView(line.unicodeScalars.filter {
                    !$0.properties.isDefaultIgnorableCodePoint && $0.properties.generalCategory != .control
                }))
                #expect(!seen.drop { $0.isWhitespace }.hasPrefix("::"), "\(text)")
                #expect(!seen.contains("##["), "\(text)")
            }
        }
    }
}
