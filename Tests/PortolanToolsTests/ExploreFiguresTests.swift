import Portolan
import PortolanLua
@testable import PortolanTools
import Synchronization
import Testing
import TestSupport

/// What an exploration counts and prints besides its findings (issue 36): fingerprints with their
/// odds of a collision, what each kind of action did, the out-degrees, progress while it runs, and
/// the sampled second runs for nondeterminism.
@Suite struct ExploreFiguresTests {
    static let fixture = "Examples/explore-faults/app.lua"

    @Test func aFingerprintIsTheFirst64BitsOfTheSHA256() {
        // SHA-256("abc") = ba7816bf 8f01cfea 414140de …
        #expect(ExploreState.fingerprint(of: Array("abc".utf8)) == 0xba78_16bf_8f01_cfea)
    }

    @Test func aVisitedStateTakes32BytesAndSharesItsPath() async throws {
        #expect(VisitedStates.bytesPerState == 32)
        let report = try await Explorer(app: Self.fixture, options: .init(seconds: untimedExploration)).run()
        #expect(report.states.distinctPaths.count <= report.states.count / 2, "\(report.states.distinctPaths.count) paths")
        for (index, state) in report.states.enumerated() where index > 0 {
            let parent = try #require(state.parent)
            #expect(parent.index < index && report.states[parent.index].depth == state.depth - 1)
        }
        #expect(report.states.first?.parent == nil)
    }

    @Test func theOddsOfACollisionGrowWithTheSquareOfTheStatesMet() {
        var report = ExploreReport(app: "a.lua")
        report.statesMet = 1
        #expect(report.fingerprintCollisionOdds == 0)
        report.statesMet = 100_000
        let odds = report.fingerprintCollisionOdds
        #expect(odds > 2.7e-10 && odds < 2.8e-10, "\(odds)")
        #expect(ExploreTextReport.scientific(odds) == "2.7e-10")
        #expect(ExploreTextReport.scientific(0) == "0")
        #expect(ExploreTextReport.scientific(9.96) == "1.0e1")
    }

    @Test func theFiguresAddUpToTheRun() async throws {
        let report = try await Explorer(app: Self.fixture, options: .init(seconds: untimedExploration)).run()
        let tallies = report.statistics.byKind.values
        #expect(tallies.reduce(0) { $0 + $1.tried } == report.transitions)
        #expect(tallies.allSatisfy { $0.tried == $0.routed + $0.failed + $0.nothing })
        #expect(tallies.reduce(0) { $0 + $1.newStates } == report.states.count - 1, "every state but the start was new once")
        #expect(report.statistics.outDegrees.values.reduce(0, +) == report.states.filter(\.expanded).count)
        #expect(report.statesMet == report.states.count, "no state limit was reached")
        let text = ExploreFormat.text.render(report)
        #expect(text.contains("\nactions by kind:\n  route "))
        #expect(text.contains("\nout-degree (other states a state's actions lead to): min "))
        #expect(text.contains("\nfingerprints: 64 bits for \(report.statesMet) states met; the chance that two share one is about "))
        let json = try #require(SnapshotReader.json(from: Array(ExploreFormat.json.render(report).utf8))?.objectValue)
        #expect(json["states_met"]?.integerValue == Int64(report.statesMet))
        let kinds = json["statistics"]?.objectValue?["actions_by_kind"]?.objectValue
        #expect(kinds?["route"]?.objectValue?["tried"]?.integerValue == Int64(report.statistics.byKind[.route]?.tried ?? -1))
    }

    @Test func aReportWithoutItsEdgesSaysTheSame() async throws {
        var options = ExploreOptions(seconds: untimedExploration)
        options.keepsEdges = false
        let without = try await Explorer(app: Self.fixture, options: options).run()
        let with = try await Explorer(app: Self.fixture, options: .init(seconds: untimedExploration)).run()
        #expect(without.edges.isEmpty && with.edges.count == with.transitions)
        #expect(without.transitions == with.transitions)
        for format in ExploreFormat.allCases {
            #expect(format.render(without) == format.render(with), "\(format)")
        }
    }

    @Test func progressIsToldAfterEachBatchAndEndsWhereTheRunDoes() async throws {
        let seen = Mutex<[ExploreProgress]>([])
        let report = try await Explorer(app: Self.fixture, options: .init(depth: 2, batchSize: 4)).run { progress in
            seen.withLock { $0.append(progress) }
        }
        let told = seen.withLock { $0 }
        try #require(told.count >= 3, "\(told.count)")
        #expect(zip(told, told.dropFirst()).allSatisfy { $0.actions <= $1.actions && $0.statesKept <= $1.statesKept })
        #expect(told.last?.actions == report.transitions)
        #expect(told.last?.statesKept == report.states.count)
        #expect(told.last?.text.hasPrefix("depth 1: \(report.states.count) states kept, ") == true)
    }

    @Test func deeperStatesAreRunTwiceOneInRecheck() async throws {
        let scratch = try TemporaryDirectory("recheck")
        defer { scratch.remove() }
        // 27 combinations of three keys, on either tab: states up to four actions deep.
        try scratch.write("app.lua", """
            local portolan = require "portolan"
            portolan.initial_state { a = 1, b = 1, c = 1 }
            portolan.app { id = "root", kind = "switch", active = "one",
              explore = { state = { a = { 1, 2, 3 }, b = { 1, 2, 3 }, c = { 1, 2, 3 } } },
              children = { { id = "one" }, { id = "two" } } }
            """)
        let app = scratch.path("app.lua")
        let every = try await Explorer(app: app, options: .init(recheck: 1)).run()
        #expect(every.states.count == 54)
        #expect(every.states.distinctPaths.count == 2, "27 states of the app on each tab share its path")
        #expect(every.rechecked == every.states.filter(\.expanded).count)
        let sampled = try await Explorer(app: app, options: .init(recheck: 1_000_000)).run()
        let shallow = sampled.states.filter { $0.expanded && $0.depth <= ExploreOptions.recheckDepth }.count
        #expect(sampled.rechecked >= shallow)
        #expect(sampled.rechecked < sampled.states.filter(\.expanded).count, "states deeper than \(ExploreOptions.recheckDepth) exist")
        #expect(ExploreFormat.text.render(sampled).contains("run twice for nondeterminism: the actions of \(sampled.rechecked) of "))
    }

    @Test func theFixturesNondeterminismShowsWithTheSecondRunsSampled() async throws {
        let every = try await Explorer(app: Self.fixture, options: .init(seconds: untimedExploration, recheck: 1)).run()
        let sampled = try await Explorer(app: Self.fixture, options: .init(seconds: untimedExploration, recheck: 1_000_000)).run()
        #expect(every.count(of: .nondeterminism) >= 3)
        #expect(sampled.count(of: .nondeterminism) == every.count(of: .nondeterminism))
    }
}
