import ArgumentParser
import PortolanLua
import PortolanShipping
import PortolanTools

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `portolan check`: lints an app script for CI.
struct Check: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        // Named here, not derived from the type's name: deriving it costs the parser a reflective
        // String(describing:) at every start-up, the REPL's included (Benchmarks/README.md, "Start-up").
        commandName: "check",
        abstract: "Lint an app script: every problem, each at its file:line.",
        discussion: """
            Finds duplicate ids, a switch's active naming a non-child, nodes no route can reach, \
            ambiguous or shadowed URL patterns, handler fields that are not functions, and guards and \
            redirects naming unknown nodes. The script runs once in a sandbox, as the REPL would load it.

            --format github writes each finding as a GitHub Actions workflow command \
            (::error file=app.lua,line=12,title=portolan check%3A duplicate-id::message, ::warning for a \
            warning), which the runner shows as an annotation on the pull request's line; the summary \
            follows as a plain line.

            --strict makes warnings fail too (exit status 1), for CI: a misspelt option (keep as kepp) \
            is a warning, since the app still loads, but it silently changes what the app does.

            """ + ExitStatusHelp.paragraph([
                (0, "no error (warnings allowed, unless --strict)"),
                (1, "at least one error, or with --strict at least one warning"),
                (2, "the app file cannot be read: the job is wrong, not the app"),
            ])
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json, github
    }

    @Option(help: ArgumentHelp(
        "The report format: text (one line per finding, then a summary), json, or github (GitHub Actions annotations).",
        valueName: "text|json|github"))
    var format: Format = .text

    @Flag(help: "Fail (exit status 1) on warnings too, not only on errors.")
    var strict = false

    @OptionGroup var script: AppScript

    /// The app script to check.
    var app: String { script.path }

    func run() async throws {
        var status = stat()
        guard stat(app, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, access(app, R_OK) == 0 else {
            // Not a lint finding: CI must tell "the app is wrong" (1) from "the job is wrong" (2).
            StandardStreams.errorLine("portolan check: no such app file: \(app)")
            throw ExitCode(2)
        }
        let report = await AppChecker.check(file: app)
        switch format {
        case .text: StandardStreams.report(report.text)
        case .json: StandardStreams.report(report.json, as: .json)
        case .github: StandardStreams.annotations(report.github)
        }
        if report.hasErrors || (strict && report.warningCount > 0) {
            throw ExitCode(1)
        }
    }
}
