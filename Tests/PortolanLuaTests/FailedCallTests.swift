import Portolan
import PortolanLua
import Synchronization
import Testing

/// Every place a route calls the app's code maps what that code throws the same way
/// (`RouteFailure(thrownBy:)`): a time limit is `timeout`, an interrupt is `cancelled`, an error is
/// `handler_failed` (a redirect rule's: `invalid`, its URL is refused). Before, a `can_leave`
/// that timed out or was cut failed as `handler_failed`.
@Suite struct FailedCallTests {
    enum Place: String, CaseIterable, CustomTestStringConvertible {
        case handler, interceptor, contextTask, canLeave, redirectRule
        var testDescription: String { rawValue }
    }

    enum Kind: String, CaseIterable, CustomTestStringConvertible {
        case timeout, cancelled, error
        var testDescription: String { rawValue }

        /// What the app's function does: runs past its time limit, runs until it is interrupted
        /// (it says so first), or raises. It runs rather than waits, since a redirect rule cannot
        /// wait; the time limit and the interrupt stop a running function as they stop a wait.
        var body: String {
            switch self {
            case .timeout: "while true do end"
            case .cancelled: #"log("running") while true do end"#
            case .error: #"error("broken", 0)"#
            }
        }
    }

    final class Log: Sendable {
        private let lines = Mutex<[String]>([])
        func append(_ line: String) { lines.withLock { $0.append(line) } }
        var all: [String] { lines.withLock { $0 } }
    }

    /// An app where the place runs `body` on the way from `root > a` to `root > b`, and nothing of
    /// the app's on the way to `root > a`, so that no time limit is at stake there. An interceptor
    /// runs before every route, so it is added once the app is at `root > a` (`interceptor`).
    static func app(_ place: Place, _ body: String) -> String {
        let function = "function() \(body) end"
        let a = place == .canLeave ? "{ id = \"a\", can_leave = \(function) }" : "{ id = \"a\" }"
        let b = switch place {
        case .handler: "{ id = \"b\", route = \"/b\", enter = \(function) }"
        case .contextTask: "{ id = \"b\", route = \"/b\", context_task = \(function) }"
        default: "{ id = \"b\", route = \"/b\" }"
        }
        var source = "portolan.app { id = \"root\", children = { \(a), \(b) } }\n"
        if place == .redirectRule {
            source += "portolan.redirect_rule(function(url) if url == \"/old\" then \(body) end end)\n"
        }
        return source
    }

    static func interceptor(_ body: String) -> String {
        "portolan.intercept(function() \(body) end)"
    }

    @Test(arguments: Place.allCases, Kind.allCases)
    func aThrownErrorFailsTheRouteTheSameWayEverywhere(place: Place, kind: Kind) async throws {
        let log = Log()
        // No instruction budget to speak of: only the time limit or the interrupt stops the loop.
        let host = try PortolanHost(configuration: .init(
            handlerTimeout: kind == .timeout ? .milliseconds(50) : .seconds(600), handlerInstructionBudget: 1 << 50))
        await host.setOutput { _ in }
        try await host.register(function: "log") { arguments in
            log.append(arguments.compactMap(\.stringValue).joined(separator: " "))
            return []
        }
        try await host.loadApp(.source(Self.app(place, kind.body), chunkName: "app.lua"))
        #expect(await host.route(.path(["root", "a"])).success == [.enter("a")])
        if place == .interceptor { _ = try await host.run(Self.interceptor(kind.body), chunkName: "later.lua") }
        let attempt = Task { () -> RouteFailure? in
            if place == .redirectRule {
                if case .failure(let failure) = await host.resolve(url: "/old") { return failure }
                return nil
            }
            return await host.route(.path(["root", "b"])).failure
        }
        if kind == .cancelled {
            // Polls without a limit: the test's own time limit ends a wait that never comes.
            while !log.all.contains("running") { try await Task.sleep(for: .milliseconds(5)) }
            host.interruption.request()
        }
        let failure = try #require(await attempt.value)
        let expected: RouteFailure.Kind = switch kind {
        case .timeout: .timeout
        case .cancelled: .cancelled
        case .error: place == .redirectRule ? .invalid : .handlerFailed
        }
        #expect(failure.kind == expected, "\(failure)")
        let instruction: Instruction? = switch place {
        case .handler: .enter("b")
        case .canLeave: .leave("a")
        default: nil
        }
        #expect(failure.instruction == instruction)
        #expect(await host.router?.activePath == ["root", "a"], "the tree is back where the route started")
    }
}
