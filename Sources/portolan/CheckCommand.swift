import ArgumentParser
import PortolanLua
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

            Exit status: 0 when there is no error (warnings allowed), 1 when there is one, \
            2 when the file cannot be read or the arguments are wrong.
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @Option(help: "The report format: text (one line per finding, then a summary) or json.")
    var format: Format = .text

    @Argument(help: ArgumentHelp("The app script to check.", valueName: "app.lua"))
    var app: String

    func run() async throws {
        var status = stat()
        guard stat(app, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, access(app, R_OK) == 0 else {
            // Not a lint finding: CI must tell "the app is wrong" (1) from "the job is wrong" (2).
            StandardStreams.errorLine("portolan check: no such app file: \(app)")
            throw ExitCode(2)
        }
        let report = await AppChecker.check(file: app)
        switch format {
        case .text: print(report.text)
        case .json: print(report.json)
        }
        if report.hasErrors {
            throw ExitCode(1)
        }
    }
}
