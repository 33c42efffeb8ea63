import Testing
import TestSupport

/// `portolan`, `portolan repl` and `portolan repl APP` start the REPL without the argument parser
/// (`DirectRepl`, for start-up time); the same command lines with `--` go through the parser.
/// Both paths must behave alike: same output, same errors, same exit status.
@Suite struct DirectReplCLITests {
    static let input = """
        1 + 1
        login()
        /root/dashboard/wishlist
        error("boom")

        """

    @Test(.timeLimit(.minutes(10))) func theDemoAppStartsAlikeWithAndWithoutTheParser() throws {
        let direct = try ReplBinary.run([], input: Self.input)
        let directRepl = try ReplBinary.run(["repl"], input: Self.input)
        let parsed = try ReplBinary.run(["repl", "--"], input: Self.input)
        #expect(direct.status == 0)
        #expect(direct.output.contains("active: root > dashboard > wishlist"))
        #expect(direct.output.contains("error: stdin:1: boom"))
        expectAlike(directRepl, direct)
        expectAlike(parsed, direct)
    }

    @Test(.timeLimit(.minutes(10))) func anAppFileLoadsAlikeWithAndWithoutTheParser() throws {
        let app = Repository.root + "/Examples/movies/app.lua"
        let direct = try ReplBinary.run(["repl", app], input: Self.input)
        let parsed = try ReplBinary.run(["repl", "--", app], input: Self.input)
        #expect(direct.status == 0)
        #expect(direct.output.contains("active: root > dashboard > wishlist"))
        expectAlike(parsed, direct)
    }

    @Test(.timeLimit(.minutes(10))) func aMissingAppFailsAlikeWithAndWithoutTheParser() throws {
        let direct = try ReplBinary.run(["repl", "/nonexistent/app.lua"], input: "")
        let parsed = try ReplBinary.run(["repl", "--", "/nonexistent/app.lua"], input: "")
        #expect(direct.status == 1)
        #expect(direct.error.contains("/nonexistent/app.lua"))
        expectAlike(parsed, direct)
    }

    private func expectAlike(
        _ run: ReplBinary.Run, _ reference: ReplBinary.Run, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(run.status == reference.status, sourceLocation: sourceLocation)
        #expect(run.output == reference.output, sourceLocation: sourceLocation)
        #expect(run.error == reference.error, sourceLocation: sourceLocation)
    }

    @Test(.timeLimit(.minutes(10))) func optionsAndHelpStillGoThroughTheParser() throws {
        let help = try ReplBinary.run(["repl", "--help"], input: "")
        #expect(help.status == 0)
        #expect(help.output.contains("USAGE: portolan repl"))
        let unknown = try ReplBinary.run(["repl", "--no-such-option"], input: "")
        #expect(unknown.status != 0)
        #expect(unknown.error.contains("--no-such-option"))
    }
}
