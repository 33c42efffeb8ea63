import Portolan
@testable import PortolanTools
import Testing
@testable import PortolanShipping

/// Output stays well-formed whatever a name holds: no raw NUL, ESC or BEL in TAP, the text
/// reports or DOT, and one line per finding (issue 10, item 7).
@Suite struct WellFormedOutputTests {
    static let hostile = "a\u{0}b\u{1B}[31mc\u{7}d"

    @Test func tapShowsControlCharactersInsteadOfWritingThem() {
        var tap = TAPScenarioReporter()
        let failed = ScenarioResult(
            file: "s.lua", name: Self.hostile, outcome: .failed("bad \u{1B} news\nsecond line"), output: ["out\u{0}put\tok"])
        let text = tap.report(failed) ?? ""
        #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" && $0 != "\t" }, "\(text.debugDescription)")
        // In a TAP description a backslash is itself escaped.
        #expect(text.contains(#"a\\u{00}b\\u{1B}[31mc\\u{07}d"#))
        #expect(text.contains("    second line"))
        #expect(text.contains("    out\\u{00}put\tok"))
    }

    @Test func theTextReportShowsThemToo() {
        let text = TextScenarioReporter().report(ScenarioResult(file: "s.lua", name: Self.hostile, outcome: .passed)) ?? ""
        #expect(text == #"ok   s.lua: a\u{00}b\u{1B}[31mc\u{07}d"#)
    }

    @Test func aFindingIsOneLineWhateverItsIDHolds() {
        let finding = CheckFinding(.error, .duplicateID, file: "app.lua", line: 3, "duplicate id 'x\ny\u{0}'")
        #expect(finding.text == #"app.lua:3: error: duplicate id 'x\u{0A}y\u{00}' [duplicate-id]"#)
    }

    @Test func dotNeverHoldsARawControlCharacter() throws {
        let graph = try NavigationGraph(root: .screen("root", [.screen("\u{0}nul"), .screen("bell\u{7}")]))
        let dot = GraphRenderer.render(graph, as: .dot)
        #expect(!dot.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(dot.debugDescription)")
        #expect(dot.contains(#"\\u{00}nul"#))
    }
}
