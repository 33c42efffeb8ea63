import Portolan
@testable import PortolanTools
import Testing
@testable import PortolanShipping

/// Issue 18, finding 7: what the scenario runner and the REPL keep of a script's values is bounded
/// by bytes — the journal's event texts and route lines, a scenario's name and failure message.
@Suite struct ScenarioBoundsTests {
    private static let sixteenMiB = String(repeating: "x", count: 16 << 20)

    private static func detail(_ number: Int) -> Destination {
        .path([Entry("root"), Entry("detail", context: ["blob": .string(sixteenMiB), "i": .integer(Int64(number))])])
    }

    @Test func theJournalHoldsTextsOfBoundedSizeWhateverTheContexts() {
        var journal = ScenarioJournal()
        for number in 1...80 {
            let destination = Self.detail(number)
            journal.record(.willRoute(destination))
            journal.record(.instruction(.enter(Entry("detail", context: ["blob": .string(Self.sixteenMiB)]))))
            journal.record(.didRoute(destination, executed: []))
        }
        guard case .success(let texts) = journal.take() else {
            Issue.record("240 short texts fit the journal")
            return
        }
        #expect(texts.count == 240)
        #expect(texts.allSatisfy { $0.utf8.count <= ContextValue.shownBytes + 100 })
        let lines = journal.routeLines
        #expect(lines.count == 80)
        #expect(lines.allSatisfy { $0.utf8.count <= ScenarioJournal.routeLineLimit + 10 })
        #expect(lines.last?.hasPrefix("80. root > detail {blob=xxx") == true)
    }

    @Test func pastItsBytesTheJournalCountsEventsAndExpectEventsSaysSo() {
        var journal = ScenarioJournal()
        let many = (0..<1_000).map { "key\($0)" }
        let wide = Entry("detail", context: Dictionary(uniqueKeysWithValues: many.map { ($0, ContextValue.string(String(repeating: "v", count: 64))) }))
        for _ in 1...600 { journal.record(.instruction(.enter(wide))) }
        // Each text is cut at 16 KiB: 8 MiB holds 511 of the 600.
        guard case .failure(let overflow) = journal.take() else {
            Issue.record("600 texts of 16 KiB are more than 8 MiB")
            return
        }
        #expect(overflow.count == 600)
        #expect(overflow.message.contains("(or their 8 MiB of text)"), "\(overflow.message)")
        if case .success(let rest) = journal.take() {
            #expect(rest.isEmpty)
        } else {
            Issue.record("take() starts the journal afresh")
        }
    }

    @Test func aScenariosNameAndMessagesAreCut() {
        var result = ScenarioResult(
            file: "s.lua", name: String(repeating: "n", count: 10 << 20), outcome: .failed(Self.sixteenMiB))
        #expect(result.name.utf8.count <= ScenarioResult.nameBytes + 40)
        #expect(result.name.hasSuffix("… (\((10 << 20) - ScenarioResult.nameBytes) bytes cut)"))
        guard case .failed(let message) = result.outcome else {
            Issue.record("the outcome stays a failure")
            return
        }
        #expect(message.utf8.count <= ScenarioResult.messageBytes + 40)
        result.outcome = .skipped(Self.sixteenMiB)
        result.name = Self.sixteenMiB
        #expect(result.name.utf8.count <= ScenarioResult.nameBytes + 40)
        if case .skipped(let reason) = result.outcome {
            #expect(reason.utf8.count <= ScenarioResult.messageBytes + 40)
        } else {
            Issue.record("the outcome stays a skip")
        }
    }

    @Test func theReplsEventLogStopsKeepingPastItsBytes() {
        let log = RouteEventLog()
        log.start()
        for number in 1...40 { log.record(.willRoute(Self.detail(number)), step: nil) }
        let kept = log.stop()
        // 64 MiB of 16 MiB destinations: three, not forty.
        #expect(kept.count == 3, "\(kept.count)")
    }
}
