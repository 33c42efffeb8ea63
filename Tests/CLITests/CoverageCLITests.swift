import Foundation
import Testing
import TestSupport

/// `portolan test --coverage` and `--coverage-html`, end to end, and the HTML page as headless
/// Chromium renders it.
@Suite(.serialized) struct CoverageCLITests {
    private static let moviesScenarios = ["deeplinks", "failures", "onboarding", "related", "settings", "tabs"]
        .map { "Examples/movies/scenarios/\($0).lua" }

    /// `nodes 12/16 (75%)` → (12, 16), from the text report.
    private static func score(_ category: String, in text: String) -> (covered: Int, total: Int)? {
        for line in text.split(separator: "\n") where line.hasPrefix("  \(category) ") {
            let numbers = line.dropFirst(category.count + 3).split(separator: " ").first?.split(separator: "/")
            if let numbers, numbers.count == 2, let covered = Int(numbers[0]), let total = Int(numbers[1]) {
                return (covered, total)
            }
        }
        return nil
    }

    @Test func moviesCoverageTextAndHTML() async throws {
        let directory = try TemporaryDirectory("coverage")
        defer { directory.remove() }
        let html = directory.path("c.html")
        let run = try await PortolanBinary.run(
            ["test", "--app", "Examples/movies/app.lua"] + Self.moviesScenarios + ["--coverage", "--coverage-html", html])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        let start = try #require(lines.firstIndex { $0.hasPrefix("coverage of Examples/movies/app.lua (") }, "\(run.stdout)")
        // The coverage report comes after the test report's closing line.
        #expect(lines[start - 1].wholeMatch(of: /[1-9][0-9]* passed, 0 failed/) != nil)
        #expect(lines[start + 1].wholeMatch(of: /\ \ nodes [0-9]+\/[0-9]+ \([0-9]+%\)/) != nil, "\(run.stdout)")
        #expect(lines[start + 2].wholeMatch(of: /\ \ edges [0-9]+\/[0-9]+ \([0-9]+%\)/) != nil)
        #expect(lines[start + 3].wholeMatch(of: /\ \ switch targets [0-9]+\/[0-9]+ \([0-9]+%\)/) != nil)
        #expect(lines[start + 4].wholeMatch(of: /\ \ URL patterns [0-9]+\/[0-9]+ \([0-9]+%\)/) != nil)
        #expect(lines.contains("  wishlist -> settings (4)") || lines.contains { $0.hasPrefix("  wishlist -> settings (") })
        #expect(lines.last == "HTML report: " + html)
        let page = try String(contentsOfFile: html, encoding: .utf8)
        #expect(page.contains("<svg"))
        #expect(page.contains(#"data-id="wishlist_movie""#))
    }

    @Test func machineFormatsKeepCoverageOnStandardError() async throws {
        let run = try await PortolanBinary.run(
            ["test", "--format", "tap", "--coverage", "--app", "Examples/portus/app.lua", "Examples/portus/portus.lua"])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(!run.stdout.contains("coverage"))
        #expect(run.stdout.split(separator: "\n").first == "TAP version 14")
        #expect(run.stderr.contains("coverage of Examples/portus/app.lua ("), "\(run.stderr)")
        #expect(run.stderr.contains("  URL patterns 0/0 (n/a)"))

        let junit = try await PortolanBinary.run(
            ["test", "--format", "junit", "--coverage", "--app", "Examples/portus/app.lua", "Examples/portus/portus.lua"])
        #expect(junit.stdout.hasSuffix("</testsuites>\n"), "\(junit.stdout)")
        #expect(junit.stderr.contains("  nodes "))
    }

    @Test func coverageIsTheSameWhateverTheJobs() async throws {
        let arguments = ["test", "--coverage", "--app", "Examples/movies/app.lua"] + Self.moviesScenarios
        let one = try await PortolanBinary.run(arguments)
        let two = try await PortolanBinary.run(arguments + ["--jobs", "2"])
        let report = { (run: PortolanBinary.Run) in run.stdout.split(separator: "\n").drop { !$0.hasPrefix("coverage of") } }
        #expect(!report(one).isEmpty)
        #expect(report(one) == report(two))
    }

    @Test func coverageNeedsAnApp() async throws {
        let directory = try TemporaryDirectory("cli", files: ["s.lua": "scenario(\"x\", function() end)\n"])
        defer { directory.remove() }
        let run = try await PortolanBinary.run(["test", "--coverage", "s.lua"], in: directory)
        #expect(run.status == 64, "\(run.stdout)\(run.stderr)")
        #expect(run.stderr.contains("--coverage and --coverage-html need --app"), "\(run.stderr)")
        let html = try await PortolanBinary.run(["test", "--coverage-html", "c.html", "s.lua"], in: directory)
        #expect(html.status == 64)
    }

    @Test func anUnwritableHTMLFileFailsWithAMessage() async throws {
        let run = try await PortolanBinary.run(
            ["test", "--coverage-html", "/nonexistent-dir/c.html", "--app", "Examples/portus/app.lua", "Examples/portus/portus.lua"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("coverage: cannot write /nonexistent-dir/c.html"), "\(run.stderr)")
    }

    // MARK: In a real browser

    @Test(.enabled(if: Chromium.path != nil, "chromium is not installed (scripts/bootstrap.sh installs Debian's chromium)"))
    func theHTMLReportRendersInHeadlessChromium() async throws {
        let directory = try TemporaryDirectory("coverage")
        defer { directory.remove() }

        // The movies suite, as CI runs it.
        let movies = directory.path("c.html")
        let run = try await PortolanBinary.run(
            ["test", "--app", "Examples/movies/app.lua"] + Self.moviesScenarios + ["--coverage", "--coverage-html", movies])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let nodes = try #require(Self.score("nodes", in: run.stdout), "\(run.stdout)")
        let edges = try #require(Self.score("edges", in: run.stdout))
        let dom = try await Chromium.dumpDOM(of: movies, in: directory)
        // The summary, as the browser parsed it.
        #expect(dom.contains(#"<tr data-category="nodes"><th scope="row">nodes</th><td class="covered-count">\#(nodes.covered)</td><td class="total">\#(nodes.total)</td>"#), "\(dom.prefix(3000))")
        #expect(dom.contains(#"<tr data-category="edges"><th scope="row">edges</th><td class="covered-count">\#(edges.covered)</td><td class="total">\#(edges.total)</td>"#))
        // The SVG is part of the DOM, and the page's script counted its classed nodes and edges.
        #expect(dom.contains(#"<g class="node screen covered" data-id="wishlist_movie">"#))
        #expect(dom.contains(#"data-checked="yes">In this drawing: \#(nodes.covered) covered and \#(nodes.total - nodes.covered) uncovered nodes, \#(edges.covered) covered and \#(edges.total - edges.covered) uncovered edges.</p>"#), "\(dom.prefix(3000))")

        // A suite that leaves part of the Portus tree alone: node10 is never entered.
        try """
            local portolan = require "portolan"
            scenario("down to node8", function()
              expect(portolan.route { "switchNode1", "node1", "node5", "node8" }, { "enter node5", "enter node8" })
            end)
            scenario("into switchNode3", function()
              portolan.route { "switchNode1", "node2", "switchNode3", "node12" }
            end)
            """.write(toFile: directory.path("partial.lua"), atomically: true, encoding: .utf8)
        let partial = directory.path("partial.html")
        let portus = try await PortolanBinary.run(
            ["test", "--coverage", "--coverage-html", partial, "--app", Repository.root + "/Examples/portus/app.lua", "partial.lua"],
            in: directory)
        #expect(portus.status == 0, "\(portus.stdout)\(portus.stderr)")
        #expect(portus.stdout.contains("  nodes 8/16 (50%)"), "\(portus.stdout)")
        let partialDOM = try await Chromium.dumpDOM(of: partial, in: directory)
        #expect(partialDOM.contains(#"<td class="covered-count">8</td><td class="total">16</td><td class="percent">50%</td>"#))
        #expect(partialDOM.contains(#"<g class="node screen covered" data-id="node8">"#))
        #expect(partialDOM.contains(#"<g class="node screen uncovered" data-id="node10">"#))
        #expect(partialDOM.contains(#"<path class="edge uncovered" data-from="node5" data-to="node10""#))
        #expect(partialDOM.contains(#"<path class="edge covered switched" data-from="switchNode3" data-to="node12""#))
        #expect(partialDOM.contains("In this drawing: 8 covered and 8 uncovered nodes, 7 covered and 8 uncovered edges."), "\(partialDOM)")
        #expect(partialDOM.contains("<li><code>node10</code></li>"))

        // And a picture of it: a real PNG of the window's size, with more than a blank page in it.
        let png = directory.path("partial.png")
        try await Chromium.screenshot(of: partial, to: png, in: directory)
        let data = try Data(contentsOf: URL(fileURLWithPath: png))
        #expect(data.count > 20_000, "a 1280×900 screenshot of the report is tens of kilobytes, not \(data.count) bytes")
        #expect(data.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        let width = data.count >= 24 ? data[16..<20].reduce(0) { $0 << 8 | Int($1) } : 0
        let height = data.count >= 24 ? data[20..<24].reduce(0) { $0 << 8 | Int($1) } : 0
        #expect(width == 1280 && height == 900, "\(width)×\(height)")
        if let keep = ProcessInfo.processInfo.environment["PORTOLAN_KEEP_SCREENSHOT"] {
            try? FileManager.default.removeItem(atPath: keep)
            try FileManager.default.copyItem(atPath: png, toPath: keep)
        }
    }
}
