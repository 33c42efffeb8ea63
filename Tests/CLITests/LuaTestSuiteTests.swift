import Foundation
import Testing
import TestSupport

/// Lua is Lua inside the sandbox (issue 34): Lua 5.4.4's own test files, unmodified in
/// Tests/LuaTestSuite/lua-5.4.4, run as scenarios through the real binary. Only what the sandbox
/// does not have (`debug`, `io`, `os`, `package`, `string.dump`, some collector options, Lua's
/// internal testing API `T`) is cut, each cut a range of lines blanked so that every line keeps its
/// number, and each listed with its reason in Tests/LuaTestSuite/cuts.json and docs/security.md.
/// The cut files must pass in the stock `lua5.4` too, so that a cut never broke a file's own logic.
@Suite struct LuaTestSuiteTests {
    struct Manifest: Decodable {
        struct Cut: Decodable, Sendable {
            let from: Int
            let to: Int
            let why: String
        }

        struct File: Decodable, Sendable, CustomTestStringConvertible {
            let file: String
            let cuts: [Cut]
            var testDescription: String { file }
        }

        struct NotRun: Decodable {
            let file: String
            let why: String
        }

        let lua: String
        let files: [File]
        let notRun: [NotRun]
    }

    static let folder = Repository.root + "/Tests/LuaTestSuite"

    static let manifest: Manifest? = {
        guard let data = FileManager.default.contents(atPath: folder + "/cuts.json") else { return nil }
        return try? JSONDecoder().decode(Manifest.self, from: data)
    }()

    /// The file's bytes (some are Latin-1, so bytes, not text) with each cut's lines emptied.
    static func cutSource(of file: Manifest.File) throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: folder + "/lua-5.4.4/" + file.file) else {
            throw TestFailure("\(file.file) is not in Tests/LuaTestSuite/lua-5.4.4")
        }
        var lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map(Array.init)
        for cut in file.cuts {
            guard cut.from >= 1, cut.from <= cut.to, cut.to <= lines.count else {
                throw TestFailure("\(file.file): the cut \(cut.from)-\(cut.to) is not within its \(lines.count) lines")
            }
            for line in (cut.from - 1)..<cut.to { lines[line] = [] }
        }
        return Array(lines.joined(separator: [UInt8(ascii: "\n")]))
    }

    /// The cut file as a scenario: loaded under its own name, so that its errors say `strings.lua:N`,
    /// with Lua's own switches for a portable, shorter run (`_port`, `_soft`) set.
    static func scenario(named name: String, source: [UInt8]) -> [UInt8] {
        var level = "="
        while source.firstRange(of: Array("]\(level)]".utf8)) != nil { level += "=" }
        let head = "_soft = true\n_port = true\nscenario(\"\(name)\", function()\n"
            + "  local chunk = assert(load([\(level)[\n"
        let tail = "]\(level)], \"@\(name)\", \"t\"))\n  chunk()\nend)\n"
        return Array(head.utf8) + source + Array(tail.utf8)
    }

    @Test func theManifestListsFilesThatAreThereAndSaysWhyForEveryCut() throws {
        let manifest = try #require(Self.manifest, "Tests/LuaTestSuite/cuts.json does not decode")
        #expect(manifest.lua == "5.4.4")
        #expect(manifest.files.count >= 20, "Lua's own test files that apply: \(manifest.files.map(\.file))")
        for file in manifest.files {
            #expect(FileManager.default.fileExists(atPath: Self.folder + "/lua-5.4.4/" + file.file), "\(file.file)")
            for cut in file.cuts {
                #expect(!cut.why.isEmpty && !cut.why.contains("SANDBOX DIFFERENCE"), "\(file.file):\(cut.from): \(cut.why)")
            }
        }
        for file in manifest.notRun { #expect(!file.why.isEmpty, "\(file.file)") }
    }

    @Test(arguments: manifest?.files ?? [])
    func aTestFilePassesInTheSandbox(_ file: Manifest.File) async throws {
        let directory = try TemporaryDirectory("lua-test-suite")
        defer { directory.remove() }
        let scenario = Self.scenario(named: file.file, source: try Self.cutSource(of: file))
        #expect(FileManager.default.createFile(atPath: directory.path(file.file), contents: Data(scenario)))
        // Lua's own time limits do not apply: a busy machine may take minutes over the heaviest.
        let run = try await PortolanBinary.run(["test", "--timeout", "1200", file.file], in: directory)
        #expect(run.status == 0 && run.lastLine == "1 passed, 0 failed", "\(file.file):\n\(run.stdout)\(run.stderr)")
    }

    /// The stock interpreter (`scripts/bootstrap.sh` installs it) runs the same cut files.
    @Test(arguments: manifest?.files ?? [])
    func theCutFilePassesInStockLua(_ file: Manifest.File) async throws {
        let lua = "/usr/bin/lua5.4"
        try #require(FileManager.default.isExecutableFile(atPath: lua), "the stock lua5.4 is not installed")
        let directory = try TemporaryDirectory("lua-test-suite")
        defer { directory.remove() }
        #expect(FileManager.default.createFile(atPath: directory.path(file.file), contents: Data(try Self.cutSource(of: file))))
        let run = try await PortolanBinary.run(
            program: lua, ["-e", "_soft = true _port = true", file.file], in: directory.root)
        #expect(run.status == 0, "\(file.file):\n\(run.stdout)\(run.stderr)")
    }
}
