import Foundation
import Testing
import TestSupport
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Issue 18, finding 8: what an app, a handler or a scenario writes reaches a CI log through the
/// reports of `test`, `check` and `graph`, and must never give the runner a workflow command: no
/// line starts with `::` (after blanks) but `check`'s own annotations, and no line holds `##[`.
@Suite struct CIWorkflowCommandCLITests {
    /// A handler whose error ends a line and starts a command; ids holding both kinds of command.
    private static let nodes = """
          { id = "bad", enter = function() error("boom\\n::error file=x::pwned\\r##[error]from the handler", 0) end },
          { id = "x##[error]y" },
          { id = "z\\n  ::add-mask::id" },
        """
    private static let app = "portolan.app { id = \"root\", children = {\n\(nodes)} }\n"
    /// The same ids twice: the duplicate-id findings quote them.
    private static let lint = "portolan.app { id = \"root\", children = {\n\(nodes)\(nodes)} }\n"

    private static let scenarios = """
        scenario("a handler's error", function()
          print("::add-mask::x")
          print("##[error]x")
          print("\\t \\u{200B}::warning::indented, behind a zero-width space")
          local _, err = portolan.route { "root", "bad" }
          error(tostring(err), 0)
        end)
        scenario("an id", function()
          expect(portolan.route { "root", "x##[error]y" }, {})
        end)
        scenario("::error::a name", function()
          error("raised\\n::stop-commands::token\\n#\\u{200B}#[error]hidden", 0)
        end)
        """

    @Test func testReportsInTextAndTAPGiveNoCommand() async throws {
        let directory = try TemporaryDirectory("cli", files: ["app.lua": Self.app, "s.lua": Self.scenarios])
        defer { directory.remove() }
        for format in ["text", "tap"] {
            let run = try await PortolanBinary.run(["test", "--format", format, "--app", "app.lua", "s.lua"], in: directory)
            #expect(run.status == 1, "\(format): \(run.stdout)\(run.stderr)")
            // What was written is still there for a person to read.
            #expect(run.stdout.contains("pwned"), "\(format): \(run.stdout)")
            #expect(run.stdout.contains("add-mask::x"), "\(format): \(run.stdout)")
            #expect(run.stdout.contains(format == "tap" ? #"##\x5Berror]x"# : #"##\u{5B}error]x"#), "\(format): \(run.stdout)")
            Self.expectNoCommand(in: run, format)
        }
    }

    @Test func coverageReportGivesNoCommand() async throws {
        let directory = try TemporaryDirectory("cli", files: ["app.lua": Self.app, "s.lua": Self.scenarios])
        defer { directory.remove() }
        for format in ["text", "tap"] {
            let run = try await PortolanBinary.run(
                ["test", "--coverage", "--format", format, "--app", "app.lua", "s.lua"], in: directory)
            #expect(run.stdout.contains("coverage") || run.stderr.contains("coverage"), "\(format): \(run.stderr)")
            Self.expectNoCommand(in: run, format)
        }
    }

    @Test func junitReportHoldsNoCommandAndReadsTheSame() async throws {
        let directory = try TemporaryDirectory("cli", files: ["app.lua": Self.app, "s.lua": Self.scenarios])
        defer { directory.remove() }
        let run = try await PortolanBinary.run(["test", "--format", "junit", "--app", "app.lua", "s.lua"], in: directory)
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        Self.expectNoCommand(in: run, "junit")
        #if canImport(FoundationXML) || os(macOS)
        // Escaped as XML escapes: an XML reader gets the text as it was written.
        let document = try XMLDocument(xmlString: run.stdout)
        let failures = try document.nodes(forXPath: "//failure").compactMap(\.stringValue)
        #expect(failures.contains { $0.contains("##[error]from the handler") }, "\(failures)")
        let output = try document.nodes(forXPath: "//system-out").compactMap(\.stringValue)
        #expect(output.contains { $0.contains("| ##[error]x") && $0.contains("| ::add-mask::x") }, "\(output)")
        #endif
    }

    @Test func checkReportsGiveNoCommandButTheirOwnAnnotations() async throws {
        let directory = try TemporaryDirectory("cli", files: ["app.lua": Self.lint])
        defer { directory.remove() }
        for format in ["text", "json", "github"] {
            let run = try await PortolanBinary.run(["check", "--format", format, "app.lua"], in: directory)
            #expect(run.status == 1, "\(format): \(run.stdout)\(run.stderr)")
            #expect(run.stdout.contains("add-mask"), "\(format): \(run.stdout)")
            Self.expectNoCommand(in: run, format)
            if format == "github" {
                let own = Self.lines(run.stdout).filter { $0.hasPrefix("::") }
                #expect(own.count == 3, "the duplicate-id findings: \(run.stdout)")
            }
            if format == "json" {
                // Escaped as JSON escapes: a JSON reader gets the id as it was written.
                let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
                let messages = (object["findings"] as? [[String: Any]] ?? []).compactMap { $0["message"] as? String }
                #expect(messages.contains { $0.contains("z\n  ::add-mask::id") }, "\(messages)")
                #expect(messages.contains { $0.contains("x##[error]y") }, "\(messages)")
            }
        }
    }

    @Test func graphGivesNoCommand() async throws {
        let directory = try TemporaryDirectory("cli", files: ["app.lua": Self.app])
        defer { directory.remove() }
        for format in ["text", "dot", "mermaid", "json", "svg"] {
            let run = try await PortolanBinary.run(["graph", "--format", format, "app.lua"], in: directory)
            #expect(run.status == 0, "\(format): \(run.stderr)")
            Self.expectNoCommand(in: run, "graph \(format)")
        }
    }

    /// A line as the runner reads one: ended by LF or CR.
    private static func lines(_ text: String) -> [String] {
        text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }.map(String.init)
    }

    /// `check --format github`'s own annotation: `::error file=…,line=N,title=portolan check%3A code::`.
    private static func isOwnAnnotation(_ line: String) -> Bool {
        line.prefixMatch(of: /::(error|warning) file=[^:,]*(,line=[0-9]+)?,title=portolan check%3A [a-z-]+::/) != nil
    }

    private static func expectNoCommand(in run: PortolanBinary.Run, _ label: String) {
        for line in lines(run.stdout) + lines(run.stderr) {
            // What .NET's TrimStart drops, and the zero-width characters its culture-aware match skips.
            let seen = String(String.UnicodeScalarView(line.unicodeScalars.filter {
                !$0.properties.isDefaultIgnorableCodePoint && $0.properties.generalCategory != .control
            }))
            let trimmed = seen.drop { $0.isWhitespace }
            #expect(!trimmed.hasPrefix("::") || isOwnAnnotation(line), "\(label): a command line: \(line)")
            #expect(!seen.contains("##["), "\(label): a ##[ command: \(line)")
        }
    }
}
