import Portolan
import PortolanLua
@testable import PortolanTools
import Testing
import TestSupport

/// `explore --shard i/n` and `explore merge` (docs/explore.md, "Splitting a run"): the merge of a
/// run's shards is the report the one run gives, byte for byte, and shards that do not make one
/// run are refused by name.
@Suite struct ExploreShardTests {
    static let fixture = "Examples/explore-faults/app.lua"

    private static func shards(of app: String, count: Int, options: ExploreOptions = .init(seconds: untimedExploration)) async throws -> [ExploreShardFile] {
        var files: [ExploreShardFile] = []
        for number in 1...count {
            let shard = try #require(ExploreShard(number: number, count: count))
            let written = try await Explorer(app: app, options: options).run(shard: shard)
            files.append(try ExploreShardFile(bytes: Array(written.text.utf8), name: "shard \(number)"))
        }
        return files
    }

    private static func expectSame(_ merged: ExploreReport, _ one: ExploreReport) {
        for format in ExploreFormat.allCases {
            #expect(format.render(merged) == format.render(one), "\(format)")
        }
        #expect(ExploreGraph.dot(merged) == ExploreGraph.dot(one))
        for (index, finding) in one.findings.enumerated() where index < merged.findings.count {
            #expect(ExploreRepro.scenario(for: merged.findings[index], in: merged, from: nil)
                == ExploreRepro.scenario(for: finding, in: one, from: nil))
        }
    }

    @Test func theMergeOfThreeShardsIsTheOneRunsReport() async throws {
        let one = try await Explorer(app: Self.fixture, options: .init(seconds: untimedExploration)).run()
        let files = try await Self.shards(of: Self.fixture, count: 3)
        let merged = try await ExploreMerge.report(of: files.reversed())
        #expect(one.findings.count >= 24)
        Self.expectSame(merged, one)
        #expect(files.map(\.records.count).reduce(0, +) >= one.states.filter(\.expanded).count, "together they expand every state")
    }

    @Test(arguments: [2, 5, 8]) func generatedAppsMergeToTheirOneRun(_ index: Int) async throws {
        let scratch = try TemporaryDirectory("shards")
        defer { scratch.remove() }
        let generated = ExploreCoverageTests.generated(index)
        let app = try scratch.write("app.lua", generated.source)
        let options = ExploreOptions(depth: generated.depth)
        let one = try await Explorer(app: app, options: options).run()
        let merged = try await ExploreMerge.report(of: try await Self.shards(of: app, count: 3, options: options))
        #expect(merged.states.count == generated.states)
        Self.expectSame(merged, one)
    }

    @Test func aShardSplitsAtTheFirstLevelLargeEnoughAndOwnsItsShare() throws {
        let shard = try #require(ExploreShard("2/3"))
        #expect(shard.number == 2 && shard.count == 3 && shard.description == "2/3")
        #expect(!shard.splits(atLevelOf: 23) && shard.splits(atLevelOf: 24))
        #expect(shard.owns(4) && !shard.owns(3) && !shard.owns(5))
        for text in ["0/3", "4/3", "1/0", "1/257", "a/3", "1/3/4", "", "/", "-1/3", "99999999999999999999/3"] {
            #expect(ExploreShard(text) == nil, "\(text)")
        }
    }

    /// The message the merge of `files` is refused with.
    private static func refusal(_ files: [ExploreShardFile]) async -> String? {
        do {
            _ = try await ExploreMerge.report(of: files)
            return nil
        } catch {
            return error.message
        }
    }

    @Test func shardsThatAreNotOneRunAreRefusedByName() async throws {
        let files = try await Self.shards(of: Self.fixture, count: 3, options: .init(depth: 2))
        try #require(files.count == 3)
        #expect(await Self.refusal([files[0], files[2]]) == "shard 2/3 is missing")
        #expect(await Self.refusal(files + [files[0]]) == "shard 1/3 is given 2 times")
        #expect(await Self.refusal([]) == "no shard to merge")
        let deeper = try await Self.shards(of: Self.fixture, count: 3, options: .init(depth: 3))
        try #require(deeper.count == 3)
        #expect(await Self.refusal([files[0], deeper[1], files[2]]) == "shard 2/3 explored with other settings than shard 1/3: depth")
        let two = try await Self.shards(of: Self.fixture, count: 2, options: .init(depth: 2))
        try #require(two.count == 2)
        #expect(await Self.refusal(files + [two[1]]) == "shard 2/2 is of another run than shard 1/3")
        for (bytes, message) in [("{}", "not a shard"), ("[1,", "not a shard"), (#"{"format":"portolan-explore-shard 1"}"#, "needs its shard")] {
            do {
                _ = try ExploreShardFile(bytes: Array(bytes.utf8), name: "x.json")
                Issue.record("\(bytes) was read as a shard")
            } catch {
                #expect(error.message.hasPrefix("x.json: ") && error.message.contains(message), "\(error.message)")
            }
        }
    }

    @Test func anAppChangedSinceTheShardsRanIsRefused() async throws {
        let scratch = try TemporaryDirectory("changed")
        defer { scratch.remove() }
        let app = try scratch.write("app.lua", #"portolan.app { id = "root", children = { { id = "a" }, { id = "b" } } }"#)
        let files = try await Self.shards(of: app, count: 2)
        try scratch.write("app.lua", #"portolan.app { id = "root", children = { { id = "a" }, { id = "c" } } }"#)
        do {
            _ = try await ExploreMerge.report(of: files)
            Issue.record("a merge against another app was not refused")
        } catch {
            #expect(error.message.contains("the app, its scenario files or its start changed"), "\(error.message)")
        }
    }
}
