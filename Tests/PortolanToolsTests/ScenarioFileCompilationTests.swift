import Foundation
@testable import PortolanTools
import Testing

/// A scenario file is compiled once per process (CompiledChunks) and its bytecode loaded into each
/// scenario's fresh host: the top level still runs once per scenario, with the scenario globals,
/// and errors name the file:line as when each host parsed the text.
@Suite struct ScenarioFileCompilationTests {
    @Test func eachScenarioRunsTheTopLevelOnceInItsOwnHostAndErrorsNameTheLine() async throws {
        let (file, results) = try await ScenarioRunnerTests.run("""
            runs = (runs or 0) + 1
            local count = 0
            count = count + 1
            scenario("first", function() expect(runs, 1); expect(count, 1) end)
            scenario("second", function() expect(runs, 1); expect(count, 1) end)
            scenario("fails on line 6", function() expect(count, 2) end)
            """)
        guard results.count == 3 else {
            Issue.record("three scenarios, saw \(results.count)")
            return
        }
        #expect(!results[0].isFailure)
        #expect(!results[1].isFailure)
        let message = ScenarioRunnerTests.message(results[2]) ?? ""
        #expect(message.contains("\(file):6:"), "\(message)")
    }

    @Test func aSyntaxErrorNamesTheFileAndLine() async throws {
        let (file, results) = try await ScenarioRunnerTests.run("""
            scenario("a", function() end)
            local x = = 1
            """)
        let messages = results.compactMap(ScenarioRunnerTests.message)
        #expect(!messages.isEmpty)
        #expect(messages.allSatisfy { $0.contains("\(file):2:") }, "\(messages)")
    }
}
