@testable import PortolanTools
import Testing
@testable import PortolanShipping

/// The three report formats of `portolan test`: text, TAP 14 and JUnit XML.
@Suite struct ScenarioReportTests {
    private static let sample = [
        ScenarioResult(file: "a.lua", name: "passes", outcome: .passed),
        ScenarioResult(file: "a.lua", name: "fails <&> \"#1\"", outcome: .failed("a.lua:3: expected 1\nbut got 2"), output: ["printed"]),
        ScenarioResult(file: "b.lua", name: "skips", outcome: .skipped("later")),
    ]

    private static func render(_ format: ScenarioFormat, _ results: [ScenarioResult]) -> String {
        var reporter = format.makeReporter()
        var parts = [reporter.begin()]
        parts += results.map { reporter.report($0) }
        parts.append(reporter.finish(ScenarioSummary(results)))
        return parts.compactMap { $0 }.joined(separator: "\n")
    }

    @Test func textReportEndsWithTheClosingLine() {
        let lines = Self.render(.text, Self.sample).split(separator: "\n").map(String.init)
        #expect(lines.first == "ok   a.lua: passes")
        #expect(lines.contains("FAIL a.lua: fails <&> \"#1\""))
        #expect(lines.contains("     a.lua:3: expected 1"))
        #expect(lines.contains("       | printed"))
        #expect(lines.contains("skip b.lua: skips (later)"))
        #expect(lines.last == "1 passed, 1 failed, 1 skipped")
        #expect(ScenarioSummary(Self.sample.prefix(2)).description == "1 passed, 1 failed")
    }

    @Test func tapReport() {
        let lines = Self.render(.tap, Self.sample).split(separator: "\n").map(String.init)
        #expect(lines.first == "TAP version 14")
        #expect(lines.contains("ok 1 - a.lua: passes"))
        #expect(lines.contains(##"not ok 2 - a.lua: fails <&> "\#1""##))
        #expect(lines.contains("  ---"))
        #expect(lines.contains("  message: |"))
        #expect(lines.contains("    but got 2"))
        #expect(lines.contains("  ..."))
        #expect(lines.contains("ok 3 - b.lua: skips # SKIP later"))
        #expect(lines.contains("1..3"))
    }

    @Test func junitReportIsEscapedXML() throws {
        let xml = Self.render(.junit, Self.sample)
        #expect(xml.hasPrefix(#"<?xml version="1.0" encoding="UTF-8"?>"#))
        #expect(xml.contains(#"<testsuites name="portolan" tests="3" failures="1" errors="0" skipped="1""#))
        #expect(xml.contains(#"<testsuite name="a.lua" tests="2" failures="1""#))
        #expect(xml.contains(#"name="fails &lt;&amp;&gt; &quot;#1&quot;""#))
        #expect(xml.contains(#"<failure message="a.lua:3: expected 1">a.lua:3: expected 1"#))
        #expect(xml.contains(#"<skipped message="later"/>"#))
        #expect(!xml.contains("\u{0}"))
    }

    /// Issue 34: under an event diff's header, JUnit's `message` is the first differing line, not
    /// the matching line the diff shows first for context.
    @Test func junitMessageNamesTheFirstDifferingLineOfADiff() {
        let diff = "s.lua:3: events differ; - expected, + actual:\n    will_route root > a\n  - enter b\n  + enter a\n    did_route root > a"
        let xml = Self.render(.junit, [ScenarioResult(file: "s.lua", name: "events", outcome: .failed(diff))])
        #expect(xml.contains(#"<failure message="s.lua:3: events differ; - expected, + actual: - enter b">"#), "\(xml)")
        let plain = Self.render(.junit, [ScenarioResult(file: "s.lua", name: "x", outcome: .failed("s.lua:1: values differ:\n  1 ~= 2"))])
        #expect(plain.contains(#"<failure message="s.lua:1: values differ: 1 ~= 2">"#), "\(plain)")
    }
}
