import Foundation
import Testing
import TestSupport

/// Issue 33, item 1, as a release job and CI meet it, through the real binary: a pull request
/// plants links (git stores them) or a FIFO in the folders the commands collect and write. No
/// command reads, signs, runs or waits on what a link leads to; each names it and fails, and no
/// output is written through a planted folder link.
@Suite struct FolderConfinementCLITests {
    static let secret = "PRIVATE-s3cr3t-KEY"

    /// A release checkout: a key, a secret beside the rules, and rules with their scenarios.
    static func checkout() async throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory("confined", files: BundleCLITests.sources.merging([
            ".env": "TOKEN=\(secret)\n", "elsewhere/keep.txt": "keep\n",
            "app/app.lua": #"portolan.app { id = "root", children = { { id = "a" } } }"#,
            "app/scenarios/a.lua": #"scenario("a", function() expect(portolan.route { "root", "a" }, { "enter a" }) end)"#,
        ]) { $1 })
        let keygen = try await PortolanBinary.run(["bundle", "keygen", "-o", "signing.key"], in: directory)
        #expect(keygen.status == 0, "\(keygen.stderr)")
        return directory
    }

    static func link(_ name: String, to target: String, in directory: TemporaryDirectory) throws {
        try FileManager.default.createSymbolicLink(atPath: directory.path(name), withDestinationPath: target)
    }

    static func said(_ run: PortolanBinary.Run) -> String { run.stdout + run.stderr }

    @Test func bundleBuildSignsNoFileALinkLeadsTo() async throws {
        let directory = try await Self.checkout()
        defer { directory.remove() }
        let key = try String(contentsOfFile: directory.path("signing.key"), encoding: .utf8)
        let plants = [
            ("rules/k.lua", "../signing.key", "k.lua"), ("rules/env.lua", "/proc/self/environ", "env.lua"),
            ("rules/scenarios/up", "../..", "scenarios/up/"), ("rules/loop.lua", "loop.lua", "loop.lua"),
        ]
        for (name, target, shown) in plants {
            try Self.link(name, to: target, in: directory)
            let build = try await PortolanBinary.run(["bundle", "build", "rules", "--key", "signing.key", "-o", "shop.bundle"], in: directory)
            #expect(build.status == 2, "\(name): \(Self.said(build))")
            #expect(build.stderr.contains("\(shown) is refused: a symbolic link"), "\(name): \(build.stderr)")
            #expect(!Self.said(build).contains(BundleCLITests.keyBody(key)) && !Self.said(build).contains(Self.secret))
            #expect(!FileManager.default.fileExists(atPath: directory.path("shop.bundle")), "\(name)")
            try FileManager.default.removeItem(atPath: directory.path(name))
        }
        // The rules folder itself turned into a link: refused too.
        try FileManager.default.moveItem(atPath: directory.path("rules"), toPath: directory.path("real-rules"))
        try Self.link("rules", to: "real-rules", in: directory)
        let build = try await PortolanBinary.run(["bundle", "build", "rules/", "--key", "signing.key", "-o", "shop.bundle"], in: directory)
        #expect(build.status == 2 && build.stderr.contains("a symbolic link"), "\(Self.said(build))")
        let real = try await PortolanBinary.run(["bundle", "build", "real-rules", "--key", "signing.key", "-o", "shop.bundle"], in: directory)
        #expect(real.status == 0, "\(Self.said(real))")
    }

    @Test func aLinkedScenarioIsRefusedByNameAndNothingRuns() async throws {
        let directory = try await Self.checkout()
        defer { directory.remove() }
        try directory.write("stolen/x.lua", #"scenario("stolen", function() print("RAN-STOLEN") end)"#)
        try Self.link("app/scenarios/x.lua", to: "../../stolen/x.lua", in: directory)
        try Self.link("app/scenarios/more", to: "../../stolen", in: directory)
        let run = try await PortolanBinary.run(["test", "--app", "app/app.lua", "app/scenarios"], in: directory)
        #expect(run.status == 64, "\(Self.said(run))")   // the job is wrong: a usage error
        #expect(run.stderr.contains("app/scenarios/x.lua: a symbolic link"), "\(run.stderr)")
        #expect(run.stderr.contains("app/scenarios/more/: a symbolic link"), "\(run.stderr)")
        #expect(!Self.said(run).contains("RAN-STOLEN"))
        // A scenario named on the command line that is a link is refused too.
        let named = try await PortolanBinary.run(["test", "--app", "app/app.lua", "app/scenarios/x.lua"], in: directory)
        #expect(named.status == 64, "\(Self.said(named))")
        #expect(named.stderr.contains("app/scenarios/x.lua is refused: a symbolic link"), "\(named.stderr)")
        #expect(!Self.said(named).contains("RAN-STOLEN"))
    }

    @Test(.timeLimit(.minutes(10))) func aFIFOBlocksNoCommandThatCollectsFiles() async throws {
        let directory = try await Self.checkout()
        defer { directory.remove() }
        #expect(mkfifo(directory.path("rules/pipe.lua"), 0o644) == 0)
        #expect(mkfifo(directory.path("app/scenarios/pipe.lua"), 0o644) == 0)
        let runs: [([String], Int32)] = [
            (["bundle", "build", "rules", "--key", "signing.key", "-o", "shop.bundle"], 2),
            (["test", "--app", "app/app.lua", "app/scenarios"], 64),
            (["explore", "app/app.lua", "--depth", "2"], 2),
        ]
        for (arguments, status) in runs {
            let run = try await PortolanBinary.run(arguments, in: directory)
            #expect(run.status == status, "\(arguments): \(Self.said(run))")
            #expect(run.stderr.contains("pipe.lua") && run.stderr.contains("not a regular file"), "\(arguments): \(run.stderr)")
        }
        // A file named on the command line is opened without blocking too.
        #expect(mkfifo(directory.path("pipe.bundle"), 0o644) == 0)
        let inspect = try await PortolanBinary.run(["bundle", "inspect", "pipe.bundle"], in: directory)
        #expect(inspect.status == 2 && inspect.stderr.contains("cannot read the bundle pipe.bundle"), "\(Self.said(inspect))")
        let graph = try await PortolanBinary.run(["graph", "app/scenarios/pipe.lua"], in: directory)
        #expect(graph.status == 1 && graph.stderr.contains("pipe.lua: not a regular file"), "\(Self.said(graph))")
    }

    @Test func noOutputIsWrittenThroughAPlantedFolderLink() async throws {
        let directory = try await Self.checkout()
        defer { directory.remove() }
        try Self.link("repros", to: "elsewhere", in: directory)
        try Self.link("reports", to: "elsewhere", in: directory)
        try FileManager.default.createDirectory(atPath: directory.path("build"), withIntermediateDirectories: false)
        try Self.link("build/out", to: "../elsewhere", in: directory)
        try directory.write("dead-end.lua", #"portolan.app { id = "root", children = { { id = "a", enter = function() error("boom") end } } }"#)
        let explore = try await PortolanBinary.run(["explore", "dead-end.lua", "--depth", "2", "--repro-dir", "repros"], in: directory)
        #expect(explore.status == 2 && explore.stderr.contains("a symbolic link"), "\(Self.said(explore))")
        let writes = [
            ["test", "--app", "app/app.lua", "--coverage-html", "reports/coverage.html", "app/scenarios"],
            ["test", "--app", "app/app.lua", "--coverage-html", "build/out/coverage.html", "app/scenarios"],
            ["bundle", "build", "rules", "--key", "signing.key", "-o", "reports/shop.bundle"],
            ["bundle", "keygen", "-o", "reports/new.key"],
            ["types", "--output", "build/out/portolan.d.lua"],
        ]
        for arguments in writes {
            let run = try await PortolanBinary.run(arguments, in: directory)
            #expect(run.status != 0 && Self.said(run).contains("a symbolic link on the way"), "\(arguments): \(Self.said(run))")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path("elsewhere")) == ["keep.txt"])
    }
}
