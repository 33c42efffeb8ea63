import Foundation
import Testing
import TestSupport

#if canImport(FoundationXML)
import FoundationXML
#endif

/// `portolan explore`, the built binary driven end to end: its repros fail under `portolan test`
/// for the planted reason, its exit statuses, and its byte-identical report with `--jobs`.
@Suite struct ExploreCLITests {
    static let fixture = "Examples/explore-faults/app.lua"

    @Test func eachReproFailsUnderPortolanTestForThePlantedReason() async throws {
        let directory = try TemporaryDirectory("explore-repros")
        defer { directory.remove() }
        let run = try await PortolanBinary.run(["explore", Self.fixture, "--repro-dir", directory.root, "--format", "json"])
        #expect(run.status == 1, "\(run.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let findings = try #require(report["findings"] as? [[String: Any]])
        #expect(findings.count >= 24)
        for finding in findings {
            let kind = try #require(finding["kind"] as? String)
            let repro = try #require(finding["repro"] as? String)
            let test = try await PortolanBinary.run(["test", "--app", Self.fixture, repro])
            #expect(test.status == 1, "\(repro) passed: \(test.stdout)")
            #expect(test.stdout.contains("FAIL"), "\(repro)")
            #expect(test.stdout.contains("\(kind):"), "\(repro) failed for another reason: \(test.stdout)")
            // The fault's own words (`planted 1.a`, the loop, the path back led to) are in the failure.
            let evidence = try #require(finding["evidence"] as? String)
            if let planted = evidence.firstMatch(of: #/planted [0-9]\.[a-z]/#) {
                #expect(test.stdout.contains(String(planted.output)), "\(repro): \(test.stdout)")
            }
        }
    }

    @Test func jobsGiveTheSameReportByteForByte() async throws {
        for format in ["text", "json"] {
            // A handler limit no busy machine reaches (the endless handler stops at its budget).
            let limit = ["--handler-timeout", "120"]
            let one = try await PortolanBinary.run(["explore", Self.fixture, "--format", format, "--jobs", "1"] + limit)
            let two = try await PortolanBinary.run(["explore", Self.fixture, "--format", format, "--jobs", "2"] + limit)
            #expect(one.status == 1 && two.status == 1)
            #expect(one.stdout == two.stdout, "\(format)")
            #expect(!one.stdout.isEmpty)
        }
    }

    @Test func progressGoesToStandardErrorAndLeavesTheReportAsItIs() async throws {
        let quiet = try await PortolanBinary.run(["explore", Self.fixture, "--depth", "2", "--fail-on", "none", "--progress", "0"])
        #expect(quiet.status == 0, "\(quiet.stderr)")
        #expect(!quiet.stderr.contains("explore: depth"))
        let told = try await PortolanBinary.run(["explore", Self.fixture, "--depth", "2", "--fail-on", "none", "--progress", "0.000001"])
        #expect(told.status == 0, "\(told.stderr)")
        #expect(told.stderr.contains(#/explore: depth 1: [0-9]+ states kept, [0-9]+ queued, [0-9]+ actions in /#), "\(told.stderr)")
        #expect(told.stdout == quiet.stdout)
        for wrong in [["--progress", "-1"], ["--progress", "nan"], ["--recheck", "0"]] {
            let refused = try await PortolanBinary.run(["explore", Self.fixture] + wrong)
            #expect(refused.status == 64, "\(wrong)")
        }
    }

    @Test func threeShardsMergeToTheOneRunsReportByteForByte() async throws {
        let directory = try TemporaryDirectory("explore-shards")
        defer { directory.remove() }
        let limit = ["--handler-timeout", "120"]
        let one = try await PortolanBinary.run(["explore", Self.fixture, "--format", "json"] + limit)
        var files: [String] = []
        for number in 1...3 {
            let shard = try await PortolanBinary.run(["explore", Self.fixture, "--shard", "\(number)/3"] + limit)
            #expect(shard.status == 0, "\(shard.stderr)")
            files.append(try directory.write("shard-\(number).json", shard.stdout))
        }
        let merged = try await PortolanBinary.run(["explore", "merge"] + files.reversed() + ["--format", "json"])
        #expect(merged.status == 1, "findings make the status 1, as the one run's: \(merged.stderr)")
        #expect(one.status == 1)
        #expect(merged.stdout == one.stdout)
        #expect(!merged.stdout.isEmpty)
        let missing = try await PortolanBinary.run(["explore", "merge", files[0], files[2]])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("explore merge: shard 2/3 is missing"), "\(missing.stderr)")
        let named = try await PortolanBinary.run(["explore", "run", Self.fixture, "--depth", "1", "--fail-on", "none"])
        #expect(named.status == 0, "explore run is explore: \(named.stderr)")
        for wrong in [["--shard", "0/3"], ["--shard", "4/3"], ["--shard", "1/3", "--repro-dir", directory.root], ["--shard", "1/3", "--format", "json"]] {
            let refused = try await PortolanBinary.run(["explore", Self.fixture] + wrong)
            #expect(refused.status == 64, "\(wrong): \(refused.stderr)")
        }
        let notAShard = try await PortolanBinary.run(["explore", "merge", Self.fixture])
        #expect(notAShard.status == 2)
        #expect(notAShard.stderr.contains("not a shard of portolan explore"), "\(notAShard.stderr)")
    }

    @Test func failOnSetsTheExitStatus() async throws {
        let none = try await PortolanBinary.run(["explore", Self.fixture, "--fail-on", "none", "--depth", "1"])
        #expect(none.status == 0, "\(none.stderr)")
        let dead = try await PortolanBinary.run(["explore", Self.fixture, "--fail-on", "snapshot-loss", "--depth", "1"])
        #expect(dead.status == 0, "no snapshot is lost in the fixture")
        let loops = try await PortolanBinary.run(["explore", Self.fixture, "--fail-on", "2", "--depth", "1"])
        #expect(loops.status == 1)
        let wrong = try await PortolanBinary.run(["explore", Self.fixture, "--fail-on", "sloppy"])
        #expect(wrong.status == 64)
        #expect(wrong.stderr.contains("no kind sloppy"))
        let missing = try await PortolanBinary.run(["explore", "no/such/app.lua"])
        #expect(missing.status == 2)
    }

    @Test func githubAndJUnitFormatsNameEachFinding() async throws {
        let github = try await PortolanBinary.run(["explore", Self.fixture, "--format", "github", "--depth", "1"])
        #expect(github.stdout.contains("::error file=Examples/explore-faults/app.lua,title=portolan explore%3A redirect-loop::"))
        let junit = try await PortolanBinary.run(["explore", Self.fixture, "--format", "junit", "--depth", "1"])
        _ = try XMLDocument(data: Data(junit.stdout.utf8))
        #expect(junit.stdout.contains("classname=\"explore.redirect-loop\""))
    }

    @Test func theCoveragePageShowsExplorationNextToScenarios() async throws {
        let directory = try TemporaryDirectory("explore-coverage")
        defer { directory.remove() }
        let run = try await PortolanBinary.run(
            ["explore", "Examples/movies/app.lua", "--depth", "1", "--fail-on", "none", "--coverage-html", directory.path("c.html")])
        #expect(run.status == 0, "\(run.stderr)")
        let page = try String(contentsOfFile: directory.path("c.html"), encoding: .utf8)
        _ = try XMLDocument(data: Data(page.utf8), options: [.documentTidyHTML])
        // The demo's scenarios reach every node; one step of exploration reaches the welcome screens.
        #expect(page.contains("<td class=\"scenario-count\">14 (100%)</td>"), "\(page)")
        #expect(page.contains("<tr data-category=\"nodes\"><th scope=\"row\">nodes</th><td class=\"scenario-count\">14 (100%)</td><td class=\"explored-count\">"))
        let fixture = try await PortolanBinary.run(
            ["explore", Self.fixture, "--depth", "1", "--fail-on", "none", "--coverage-html", directory.path("f.html")])
        #expect(fixture.status == 0)
        let fixturePage = try String(contentsOfFile: directory.path("f.html"), encoding: .utf8)
        #expect(fixturePage.contains("<li class=\"node\"><code>trap_leave</code></li>"), "no scenario reaches what exploration did")
    }

    @Test func theGraphIsDrawnWithFindingsMarked() async throws {
        let directory = try TemporaryDirectory("explore-graph")
        defer { directory.remove() }
        for name in ["states.dot", "states.svg"] {
            let run = try await PortolanBinary.run(["explore", Self.fixture, "--graph", directory.path(name), "--depth", "1"])
            #expect(run.status == 1)
            let drawn = try String(contentsOfFile: directory.path(name), encoding: .utf8)
            #expect(drawn.contains("trap_leave"))
            #expect(drawn.contains(name.hasSuffix(".dot") ? "color=red" : "#c00"))
            if name.hasSuffix(".svg") { _ = try XMLDocument(data: Data(drawn.utf8)) }
        }
    }
}

/// A new user's first run, as docs/explore.md shows it: an app the explorer has never seen, with a
/// guard loop planted in it, from the page's own app block.
@Suite struct ExploreFirstRunCLITests {
    @Test func theGuardLoopIsFoundAndItsReproFails() async throws {
        let page = try String(contentsOfFile: Repository.path("docs/explore.md"), encoding: .utf8)
        let start = try #require(page.range(of: "```lua\n"))
        let end = try #require(page.range(of: "```\n", range: start.upperBound..<page.endIndex))
        let directory = try TemporaryDirectory("explore-first", files: ["app.lua": String(page[start.upperBound..<end.lowerBound])])
        defer { directory.remove() }
        let run = try await PortolanBinary.run(["explore", "app.lua", "--repro-dir", "repros"], in: directory)
        #expect(run.status == 1)
        #expect(run.stdout.hasPrefix("redirect-loop: root > login (route root > verify)"), "\(run.stdout)")
        #expect(run.stdout.contains("repro: repros/explore-01-redirect-loop.lua"))
        let test = try await PortolanBinary.run(["test", "--app", "app.lua", "repros/explore-01-redirect-loop.lua"], in: directory)
        #expect(test.status == 1)
        #expect(test.stdout.contains("redirect-loop: invalid: redirect loop: 'root > verify' → 'root > account' → 'root > verify'"))
    }
}
