import Foundation
import Testing
import TestSupport

/// Issue 18, finding 9: the files the tools write (`types --output`, `--coverage-html`, and the
/// REPL's `:record` and `:graph FMT FILE`, all through `WholeFile`) went through `PATH.tmp-PID`,
/// which followed a link planted there. Now through a temporary file no one can guess or plant.
@Suite(.serialized) struct OutputFileCLITests {
    /// Links at the old scheme's names for the next process ids (the binary's is likely among them)
    /// and at a few guesses, all to a file that must stay as it is.
    private static func plantLinks(for target: String, in directory: TemporaryDirectory) throws -> [String] {
        let last = (try? String(contentsOfFile: "/proc/sys/kernel/ns_last_pid", encoding: .utf8))
            .flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) } ?? Int(getpid())
        let names = (1...400).map { "\(target).tmp-\(last + $0)" } + ["\(target).tmp", ".\(target).tmp", "\(target)~"]
        for name in names {
            try FileManager.default.createSymbolicLink(atPath: directory.path(name), withDestinationPath: directory.path("victim"))
        }
        return names
    }

    @Test func typesOutputAndCoverageHTMLNeverWriteThroughAPlantedLink() async throws {
        let directory = try TemporaryDirectory("cli", files: [
            "victim": "precious\n",
            "app.lua": #"portolan.app { id = "root", children = { { id = "a" } } }"#,
            "s.lua": #"scenario("a", function() expect(portolan.route { "root", "a" }, { "enter a" }) end)"#,
        ])
        defer { directory.remove() }
        let printed = try await PortolanBinary.run(["types"])
        let links = try Self.plantLinks(for: "portolan.d.lua", in: directory)
        let types = try await PortolanBinary.run(["types", "--output", "portolan.d.lua"], in: directory)
        #expect(types.status == 0, "\(types.stderr)")
        #expect(try String(contentsOfFile: directory.path("portolan.d.lua"), encoding: .utf8) == printed.stdout)

        let pageLinks = try Self.plantLinks(for: "coverage.html", in: directory)
        let test = try await PortolanBinary.run(["test", "--app", "app.lua", "--coverage-html", "coverage.html", "s.lua"], in: directory)
        #expect(test.status == 0, "\(test.stdout)\(test.stderr)")
        #expect(try String(contentsOfFile: directory.path("coverage.html"), encoding: .utf8).hasPrefix("<!DOCTYPE html>"))

        #expect(try String(contentsOfFile: directory.path("victim"), encoding: .utf8) == "precious\n")
        // Nothing but what was there and what was written: no temporary file left.
        let expected = Set(["victim", "app.lua", "s.lua", "portolan.d.lua", "coverage.html"] + links + pageLinks)
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: directory.root)) == expected)
    }

    @Test func aFailedWriteLeavesNoTemporaryFile() async throws {
        let directory = try TemporaryDirectory("cli")
        defer { directory.remove() }
        try FileManager.default.createDirectory(atPath: directory.path("taken"), withIntermediateDirectories: false)
        let run = try await PortolanBinary.run(["types", "--output", "taken"], in: directory)
        #expect(run.status == 1)
        #expect(run.stderr.contains("cannot write taken"), "\(run.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.root) == ["taken"])
    }
}
