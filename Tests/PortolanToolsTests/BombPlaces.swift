import Foundation
import Portolan
import PortolanLua
@testable import PortolanTools
import TestSupport
@testable import PortolanShipping

/// The places a script runs, each driven as its users drive it, for the limits suite: a bomb is put
/// there, run, and what the host, runner or REPL said is returned with whether the next thing worked.
enum BombPlaces {
    typealias Place = LimitsSuiteTests.Place

    /// An app with a plain `a` and an `x` whose handler, guard, interceptor or observer may hold
    /// `bomb`; `top` runs while the app loads.
    static func app(_ place: Place, _ bomb: String) -> String {
        func slot(_ here: Place) -> String { place == here ? bomb : "" }
        return """
            local portolan = require "portolan"
            \(slot(.appLoad))
            portolan.app { id = "root", children = {
              { id = "a" },
              { id = "x", enter = function() \(slot(.handler)) end, guard = function() \(slot(.guardRule)) end },
            } }
            portolan.intercept(function(request) if request:goes_to("x") then \(slot(.interceptor)) end end)
            portolan.on("did_route", function() if portolan.active_path()[2] == "x" then \(slot(.observer)) end end)
            """
    }

    static func run(_ bomb: String, in place: Place, directory: TemporaryDirectory) async throws -> (said: String, nextWorked: Bool) {
        try directory.write("app.lua", app(place, bomb))
        try directory.write("good.lua", app(.handler, ""))
        switch place {
        case .appLoad: return try await appLoad(directory)
        case .handler, .guardRule, .interceptor, .observer: return try await route(directory)
        case .scenarioBody: return try await scenario(bomb, directory)
        case .replChunk: return try await repl(bomb, directory)
        }
    }

    /// The first and the last lines a host printed: an output bomb must not fill the test's memory.
    final class Printed: Sendable {
        private let lines = Locked<(first: [String], last: [String])>(([], []))

        func add(_ line: String) {
            lines.withLock { lines in
                if lines.first.count < 10 {
                    lines.first.append(line)
                } else {
                    if lines.last.count == 10 { lines.last.removeFirst() }
                    lines.last.append(line)
                }
            }
        }

        var text: String { lines.withLock { ($0.first + $0.last).joined(separator: "\n") } }

        /// What was printed, forgotten.
        func take() -> String {
            lines.withLock { lines in
                defer { lines = ([], []) }
                return (lines.first + lines.last).joined(separator: "\n")
            }
        }
    }

    private static func host() async throws -> (PortolanHost, Printed) {
        let host = try PortolanHost(configuration: LimitsSuiteTests.configuration)
        let printed = Printed()
        await host.setOutput { printed.add($0) }
        return (host, printed)
    }

    private static func routesToA(_ host: PortolanHost) async -> Bool {
        (try? await host.route(.ids("root", "a")).get()) != nil
    }

    private static func appLoad(_ directory: TemporaryDirectory) async throws -> (said: String, nextWorked: Bool) {
        let (host, printed) = try await host()
        var said = ""
        do {
            try await AppLoadLimits.loadApp(host, file: directory.path("app.lua"), within: .seconds(2))
            said = "loaded"
        } catch {
            said = error.message
        }
        try await AppLoadLimits.loadApp(host, file: directory.path("good.lua"))
        return (said + "\n" + printed.text, await routesToA(host))
    }

    private static func route(_ directory: TemporaryDirectory) async throws -> (said: String, nextWorked: Bool) {
        let (host, printed) = try await host()
        try await AppLoadLimits.loadApp(host, file: directory.path("app.lua"))
        let result = await host.route(.ids("root", "x"))
        return ("\(result)\n" + printed.text, await routesToA(host))
    }

    private static func scenario(_ bomb: String, _ directory: TemporaryDirectory) async throws -> (said: String, nextWorked: Bool) {
        try directory.write("s.lua", """
            scenario("bomb", function() \(bomb) end)
            scenario("next", function() expect(#assert(portolan.route { "root", "a" }), 1) end)
            """)
        let runner = ScenarioRunner(options: .init(
            app: directory.path("good.lua"), timeout: .seconds(2), grace: .seconds(1), host: LimitsSuiteTests.configuration))
        let results = await runner.run(files: [directory.path("s.lua")])
        guard results.count == 2 else { return ("\(results.count) results: \(results)", false) }
        guard case .failed(let message) = results[0].outcome else { return ("the bomb passed: \(results[0])", false) }
        return (message, results[1].outcome == .passed)
    }

    private static func repl(_ bomb: String, _ directory: TemporaryDirectory) async throws -> (said: String, nextWorked: Bool) {
        let printed = Printed()
        let session = try await ReplSession.start(
            appFile: directory.path("good.lua"), configuration: LimitsSuiteTests.configuration, output: { printed.add($0) })
        // Ctrl-C after a second, as a user would press it; cancelled once the line is over.
        let host = session.host
        let pressCtrlC = Task {
            try await Task.sleep(for: .seconds(1))
            host.interruption.request()
        }
        await session.handle(bomb)
        pressCtrlC.cancel()
        let said = printed.take()
        await session.handle("/root/a")
        return (said, printed.text.contains("enter a"))
    }
}
