import Foundation
import Testing
import TestSupport

/// `portolan check`, end to end through the built binary: text and JSON reports, exit statuses.
@Suite struct CheckCLITests {
    @Test func theBadFixtureExitsOneWithEveryFinding() async throws {
        let run = try await PortolanBinary.run(["check", "Examples/lint/bad_app.lua"])
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("Examples/lint/bad_app.lua:22: error: duplicate id 'movie' (first declared at line 19) [duplicate-id]"))
        #expect(lines.contains(
            "Examples/lint/bad_app.lua:30: error: switch node 'tabs' names 'favourites' as active, which is not one of its children: "
                + "no node 'favourites' is declared; its children are 'wishlist', 'watched', 'profile' [active-not-child]"))
        #expect(run.lastLine == "13 errors, 13 warnings", "\(run.stdout)")
        // One line per finding and the summary.
        #expect(lines.count == 27)
    }

    @Test func cleanAppsExitZero() async throws {
        for app in ["Examples/lint/good_app.lua", "Examples/movies/app.lua", "Examples/portus/app.lua"] {
            let run = try await PortolanBinary.run(["check", app])
            #expect(run.status == 0, "\(app): \(run.stdout)\(run.stderr)")
            #expect(run.stdout == "0 errors, 0 warnings\n")
        }
    }

    @Test func warningsAloneExitZero() async throws {
        let directory = try TemporaryDirectory("cli", files: [
            "app.lua": """
                portolan.app { id = "root", children = {
                  { id = "a", route = "/x/*" },
                  { id = "b", route = "/x/:id" } } }
                """,
        ])
        defer { directory.remove() }
        let run = try await PortolanBinary.run(["check", "app.lua"], in: directory)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.hasPrefix("app.lua:2: warning: route '/x/*' of 'a' never matches"))
        #expect(run.lastLine == "0 errors, 1 warning")
    }

    @Test func jsonReport() async throws {
        let run = try await PortolanBinary.run(["check", "--format", "json", "Examples/lint/bad_app.lua"])
        #expect(run.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(object["file"] as? String == "Examples/lint/bad_app.lua")
        #expect(object["errors"] as? Int == 13)
        #expect(object["warnings"] as? Int == 13)
        let findings = try #require(object["findings"] as? [[String: Any]])
        #expect(findings.count == 26)
        let codes = Set(findings.compactMap { $0["code"] as? String })
        for code in ["duplicate-id", "active-not-child", "unreachable-node", "ambiguous-route", "shadowed-route", "shadowed-redirect-rule",
                     "handler-not-function", "unknown-node-in-guard", "unknown-node-in-redirect"] {
            #expect(codes.contains(code), "\(code)")
        }
        let first = try #require(findings.first)
        #expect(first["severity"] as? String == "error")
        #expect(first["file"] as? String == "Examples/lint/bad_app.lua")
        #expect(first["line"] as? Int == 20)
        #expect(first["message"] as? String == "the enter handler of 'movie' is a string, not a function")
    }

    @Test func aSyntaxErrorIsOneFinding() async throws {
        let run = try await PortolanBinary.run(["check", "Examples/lint/broken_syntax.lua"])
        #expect(run.status == 1)
        #expect(run.stdout == """
            Examples/lint/broken_syntax.lua:7: error: '}' expected (to close '{' at line 3) near <eof> [syntax-error]
            1 error, 0 warnings

            """)
    }

    @Test func aMissingFileIsAUsageError() async throws {
        let run = try await PortolanBinary.run(["check", "no/such/app.lua"])
        #expect(run.status == 2)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.contains("no such app file: no/such/app.lua"))
    }

    @Test func githubFormatWritesOneWorkflowCommandPerFinding() async throws {
        let run = try await PortolanBinary.run(["check", "--format", "github", "Examples/lint/bad_app.lua"])
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 27, "\(run.stdout)")
        #expect(lines.contains(
            "::error file=Examples/lint/bad_app.lua,line=22,title=portolan check%3A duplicate-id::"
                + "duplicate id 'movie' (first declared at line 19)"))
        #expect(lines.filter { $0.hasPrefix("::error file=Examples/lint/bad_app.lua,line=") }.count == 13)
        #expect(lines.filter { $0.hasPrefix("::warning file=Examples/lint/bad_app.lua,line=") }.count == 13)
        #expect(run.lastLine == "13 errors, 13 warnings")
    }

    @Test func githubFormatEncodesWhatWouldEndACommand() async throws {
        // A file name with `,` and `:`, and an id with `%`, a line feed and a carriage return, which
        // the message of a duplicate id quotes.
        let directory = try TemporaryDirectory("cli", files: [
            "a,b:c.lua": """
                portolan.app { id = "root", children = {
                  { id = "x%\\ny\\rz" },
                  { id = "x%\\ny\\rz" } } }
                """,
        ])
        defer { directory.remove() }
        let run = try await PortolanBinary.run(["check", "--format", "github", "a,b:c.lua"], in: directory)
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        try #require(lines.count == 2, "\(run.stdout)")
        #expect(lines[0].hasPrefix("::error file=a%2Cb%3Ac.lua,line=3,title=portolan check%3A duplicate-id::"), "\(lines[0])")
        #expect(lines[0].contains("x%25%0Ay%0Dz"), "\(lines[0])")
        #expect(lines[1] == "1 error, 0 warnings")
    }

    @Test func githubFormatOfACleanAppIsTheSummaryAlone() async throws {
        let run = try await PortolanBinary.run(["check", "--format", "github", "Examples/lint/good_app.lua"])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout == "0 errors, 0 warnings\n")
    }
}
