import Foundation
import Testing
import TestSupport
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Issue 18, finding 8, and issue 34: what an app, a handler, a saved state or a scenario writes
/// reaches a CI log through the reports of every command (`test`, `check`, `graph`, `explore`,
/// `snapshot`, `bundle install`), and must never give the runner a workflow command: no line starts
/// with `::` (after blanks) but the tools' own annotations, and no line holds `##[`.
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

    /// Saved states whose ids and state keys hold commands: `a` has a screen the fixture's app lacks.
    private static func snapshot(screen: String, value: String) -> String {
        let state = "{\"\\n::error::key\":\"##[error]\(value)\"}"
        return "{\"format\":\"portolan-snapshot/1\",\"history\":[],\"pending\":null,\"rules\":{\"hash\":\"\",\"version\":1},"
            + "\"state\":\(state),\"switch_history\":{},"
            + "\"tree\":[{\"active\":0,\"children\":1,\"id\":\"root\"},{\"id\":\"\(screen)\"}]}"
    }

    @Test func snapshotDiffAndMigrateGiveNoCommand() async throws {
        let directory = try TemporaryDirectory("cli", files: [
            "app.lua": Self.app,
            "a.json": Self.snapshot(screen: "gone##[error]y", value: "v"),
            "b.json": Self.snapshot(screen: "z\\n  ::add-mask::id", value: "w"),
        ])
        defer { directory.remove() }
        let diff = try await PortolanBinary.run(["snapshot", "diff", "a.json", "b.json"], in: directory)
        #expect(diff.status == 1 && diff.stdout.contains("add-mask::id") && diff.stdout.contains("error]w"), "\(diff.stdout)\(diff.stderr)")
        Self.expectNoCommand(in: diff, "snapshot diff")
        let migrate = try await PortolanBinary.run(["snapshot", "migrate", "a.json", "--app", "app.lua"], in: directory)
        #expect(migrate.stdout.contains("gone##"), "\(migrate.stdout)\(migrate.stderr)")
        Self.expectNoCommand(in: migrate, "snapshot migrate")
    }

    @Test func exploreReportsAndDrawingGiveNoCommand() async throws {
        let app = """
            portolan.app { id = "root", children = {
              { id = "x##[error]y" },
              { id = "z\\n  ::add-mask::id", guard = function() return portolan.deny("no") end },
            } }
            """
        let directory = try TemporaryDirectory("cli", files: ["app.lua": app])
        defer { directory.remove() }
        for format in ["text", "json", "junit", "github"] {
            let run = try await PortolanBinary.run(["explore", "app.lua", "--depth", "2", "--format", format, "--graph", "g.dot"], in: directory)
            #expect(run.stdout.contains("add-mask"), "\(format): \(run.stdout)\(run.stderr)")
            Self.expectNoCommand(in: run, "explore \(format)")
            if format == "json" {
                // Escaped as JSON escapes: a JSON reader gets the ids as they were written.
                let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
                #expect((object["screens_shown"] as? [String] ?? []).contains("x##[error]y"), "\(run.stdout)")
            }
            let drawing = try String(contentsOfFile: directory.path("g.dot"), encoding: .utf8)
            #expect(drawing.contains("add-mask") && !drawing.contains("##["), "\(drawing)")
        }
    }

    @Test func bundleInstallGivesNoCommand() async throws {
        let broken = """
            portolan.app { id = "root", children = {
              { id = "home", enter = function() error("boom\\n::error file=x::pwned\\r##[error]from the handler", 0) end },
              { id = "about" },
            } }
            """
        let (directory, publicKey) = try await BundleInstallCLITests.directory(rules: broken)
        defer { directory.remove() }
        let run = try await BundleInstallCLITests.install(directory, publicKey, ["--routes", "routes.txt"])
        #expect(run.status == 1 && run.stdout.contains("pwned"), "\(run.stdout)\(run.stderr)")
        Self.expectNoCommand(in: PortolanBinary.Run(status: run.status, stdout: run.stdout, stderr: run.stderr), "bundle install")
    }

    /// Every command writes its reports through one writer (`StandardStreams.report`): no command
    /// prints for itself, so a new one cannot forget `CILogText`.
    @Test func noCommandPrintsForItself() throws {
        let folder = Repository.root + "/Sources/portolan"
        for file in try FileManager.default.contentsOfDirectory(atPath: folder) where file.hasSuffix(".swift") {
            let source = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
            #expect(source.firstMatch(of: /(^|[^A-Za-z_.])print\(/) == nil, "\(file) prints for itself")
        }
    }

    /// A line as the runner reads one: ended by LF or CR.
    private static func lines(_ text: String) -> [String] {
        text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }.map(String.init)
    }

    /// `check --format github`'s and `explore --format github`'s own annotation:
    /// `::error file=…,line=N,title=portolan check%3A code::`.
    private static func isOwnAnnotation(_ line: String) -> Bool {
        line.prefixMatch(of: /::(error|warning) file=[^:,]*(,line=[0-9]+)?,title=portolan (check|explore)%3A [a-z-]+::/) != nil
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
