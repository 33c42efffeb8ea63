import Portolan
import PortolanLua
@testable import PortolanTools
import Testing
import TestSupport
@testable import PortolanShipping

/// `portolan explore` as a Swift API on its fault fixture (Examples/explore-faults/app.lua): every
/// planted fault is found with its kind, and the report is the same whatever `jobs` is.
@Suite struct ExploreFaultTests {
    static let app = Repository.path("Examples/explore-faults/app.lua")

    /// Each planted fault (`-- FAULT k.x` in the app) as the finding that shows it: its kind and
    /// its action (or, for a screen no state shows, its node).
    static let planted: [(fault: String, kind: ExploreFinding.Kind, shownBy: String)] = [
        ("1.a", .handlerError, "route root > home > raise_enter {id=2}"),
        ("1.b", .handlerError, "route root > home > raise_guard {id=2}"),
        ("1.c", .handlerError, "route root > home > spin_enter {id=2}"),
        ("1.d", .handlerError, "url /crash/now"),
        ("2.a", .redirectLoop, "route root > home > loop_a {id=2}"),
        ("2.b", .redirectLoop, "route root > home > mirror {id=2}"),
        ("2.c", .redirectLoop, "url /ping/1"),
        ("3.a", .deadEnd, "root > home > trap_leave"),
        ("3.b", .deadEnd, "root > home > trap_deny"),
        ("3.c", .deadEnd, "root > home > trap_stay"),
        ("4.a", .unreachable, "vault"),
        ("4.b", .unreachable, "hidden"),
        ("4.c", .unreachable, "moved_away"),
        ("5.a", .backMismatch, "route root > home > sticky"),
        ("5.b", .backMismatch, "route root > home > bounce"),
        ("5.c", .backMismatch, "route root > home > hop"),
        ("6.a", .planMismatch, "route root > home > dry_gate {id=2}"),
        ("6.b", .planMismatch, "route root > home > dry_redirect {id=2}"),
        ("6.c", .planMismatch, "route root > home > plan_shy {id=2}"),
        ("7.a", .noRollback, "route root > home > queue_fail {id=2}"),
        ("7.b", .noRollback, "route root > home > guard_queue {id=2}"),
        ("7.c", .noRollback, "route root > home > uf_parent > uf_child {id=2}"),
        ("8.a", .nondeterminism, "url /mood/1"),
        ("8.b", .nondeterminism, "step toss"),
        ("8.c", .nondeterminism, "step roll"),
    ]

    /// Findings a planted fault also causes: the loop of 2.a seen from its other end, and 5.a's
    /// leave handler, whose route also undoes a failed route's rollback.
    static let consequences: [(kind: ExploreFinding.Kind, shownBy: String)] = [
        (.redirectLoop, "route root > home > loop_b {id=2}"),
        (.noRollback, "root > home > sticky"),
    ]

    static func shows(_ finding: ExploreFinding, _ kind: ExploreFinding.Kind, _ shownBy: String) -> Bool {
        guard finding.kind == kind else { return false }
        switch kind {
        case .unreachable: return finding.node == shownBy
        case .deadEnd: return finding.path == shownBy
        default: return finding.action?.description == shownBy || finding.path == shownBy
        }
    }

    @Test func everyPlantedFaultIsFoundWithItsKind() async throws {
        let report = try await Explorer(app: Self.app, options: .init(seconds: untimedExploration)).run()
        #expect(Self.planted.count >= 24)
        for kind in ExploreFinding.Kind.allCases where kind != .snapshotLoss {
            #expect(Self.planted.filter { $0.kind == kind }.count >= 3, "three faults of \(kind.name)")
        }
        for fault in Self.planted {
            #expect(report.findings.contains { Self.shows($0, fault.kind, fault.shownBy) },
                    "fault \(fault.fault) (\(fault.kind.name): \(fault.shownBy)) was not found")
        }
        for finding in report.findings {
            let explained = Self.planted.contains { Self.shows(finding, $0.kind, $0.shownBy) }
                || Self.consequences.contains { Self.shows(finding, $0.kind, $0.shownBy) }
            #expect(explained, "a finding no planted fault explains: \(finding.summary)")
        }
        #expect(report.limitsReached.isEmpty, "\(report.limitsReached)")
    }

    @Test func theReportIsTheSameWhateverJobsIs() async throws {
        // A handler limit no busy machine reaches: the fixture's endless handler must stop at its
        // instruction budget in both runs, not at a time limit in one of them.
        let one = try await Explorer(app: Self.app, options: .init(seconds: untimedExploration, handlerTimeout: .seconds(120), jobs: 1, batchSize: 4)).run()
        let two = try await Explorer(app: Self.app, options: .init(seconds: untimedExploration, handlerTimeout: .seconds(120), jobs: 2, batchSize: 4)).run()
        for format in ExploreFormat.allCases {
            #expect(format.render(one) == format.render(two), "\(format)")
        }
        #expect(ExploreGraph.dot(one) == ExploreGraph.dot(two))
        #expect(one.states.count == two.states.count)
    }

    @Test func eachReproIsAScenarioThatFailsForItsFinding() async throws {
        let report = try await Explorer(app: Self.app, options: .init(seconds: untimedExploration)).run()
        let directory = try TemporaryDirectory("repros")
        defer { directory.remove() }
        let runner = ScenarioRunner(options: .init(app: Self.app))
        try #require(!report.findings.isEmpty)
        for (index, finding) in report.findings.enumerated() {
            let name = ExploreRepro.fileName(index: index, finding: finding)
            try directory.write(name, ExploreRepro.scenario(for: finding, in: report, from: nil))
            let results = await runner.run(file: directory.path(name))
            try #require(results.count == 1, "\(name)")
            guard case .failed(let message) = results[0].outcome else {
                Issue.record("\(name) did not fail: \(results[0].outcome)")
                continue
            }
            #expect(message.contains(finding.kind.name + ":"), "\(name): \(message)")
        }
    }
}
