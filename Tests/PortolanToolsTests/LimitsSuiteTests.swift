import Foundation
import Portolan
import PortolanLua
@testable import PortolanTools
import Testing
import TestSupport

/// The limits suite (issue 10): every bomb in every place a script runs ends with a clean error
/// within its bound, after which the next route (or scenario, or line) works. The wall-clock time
/// each took is printed (`limit: …`), not asserted: a timed test fails on a busy machine.
@Suite(.serialized) struct LimitsSuiteTests {
    enum Bomb: String, CaseIterable, Sendable {
        case memory, instructions, recursion, pattern, output, fileSize, wait

        var code: String {
            switch self {
            case .memory: "local t = {} for i = 1, 1e9 do t[i] = string.rep('x', 1000) .. i end"
            case .instructions: "while true do end"
            case .recursion: "local function f() return 1 + f() end f()"
            case .pattern: "string.rep('a', 5000):find('.-.-.-.-b')"
            case .output: "for i = 1, 1e9 do print(string.rep('x', 100)) end"
            case .fileSize: "portolan.load('big.lua')"
            case .wait: "portolan.wait(3600)"
            }
        }

        /// What a clean end says: the bomb's own limit, or a time limit (budget, interrupt or
        /// timeout), which on a loaded machine may come first wherever the place has one.
        var endings: [String] {
            let stopped = ["instruction budget exceeded", "interrupted", "timed out", "did not finish", "timeout"]
            switch self {
            case .memory: return stopped + ["not enough memory"]
            // The Lua stack or the state's memory, whichever runs out first.
            case .recursion: return stopped + ["stack overflow", "not enough memory"]
            case .fileSize: return ["larger than 16 MiB"]
            case .wait: return stopped + ["portolan.wait can only be called from a handler or a script's main flow"]
            case .instructions, .pattern, .output: return stopped
            }
        }
    }

    enum Place: String, CaseIterable, Sendable {
        case appLoad, handler, guardRule, interceptor, observer, scenarioBody, replChunk
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let bomb: Bomb
        let place: Place
        var testDescription: String { "\(bomb.rawValue) in \(place.rawValue)" }
    }

    static let cases = Place.allCases.flatMap { place in Bomb.allCases.map { Case(bomb: $0, place: place) } }

    /// Small limits, so the suite is quick: 32 MiB a state, a 1 s handler timeout.
    static let configuration = HostConfiguration(handlerTimeout: .seconds(1), memoryLimit: 32 << 20)

    @Test(arguments: LimitsSuiteTests.cases)
    func aBombEndsCleanlyAndWhatComesNextWorks(_ test: Case) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try Self.writeBigFile(directory.path("big.lua"))
        let started = ContinuousClock.now
        let (said, nextWorked) = try await BombPlaces.run(test.bomb.code, in: test.place, directory: directory)
        let seconds = Double((ContinuousClock.now - started).components.attoseconds) / 1e18
            + Double((ContinuousClock.now - started).components.seconds)
        print("limit: \(test.bomb.rawValue) in \(test.place.rawValue): \(String(format: "%.2f", seconds)) s")
        #expect(test.bomb.endings.contains { said.contains($0) }, "\(test.testDescription): \(said.prefix(600))")
        #expect(nextWorked, "\(test.testDescription): what came next failed: \(said.prefix(600))")
    }

    /// 17 MiB on paper, nothing on disk: one past the most a script may be.
    private static func writeBigFile(_ path: String) throws {
        FileManager.default.createFile(atPath: path, contents: nil)
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: 17 << 20)
        try handle.close()
    }
}
