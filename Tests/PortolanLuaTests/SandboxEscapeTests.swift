import Portolan
import PortolanLua
import Testing

/// The sandbox suite (issue 10): escape attempts as a hostile script author would make them, each
/// ending in a clean error or a harmless result, after which the same host still routes. Run from
/// a script's main flow or from a handler, where a route's limits hold.
@Suite struct SandboxEscapeTests {
    enum Place: Sendable { case script, handler }

    struct Attempt: Sendable, CustomTestStringConvertible {
        let name: String
        let place: Place
        let code: String
        /// Text the outcome must contain: `returned …` or `raised …` for a script, the route's
        /// failure for a handler.
        let outcome: String
        var testDescription: String { name }

        init(_ name: String, _ place: Place, _ code: String, _ outcome: String) {
            self.name = name
            self.place = place
            self.code = code
            self.outcome = outcome
        }

        init(_ name: String, _ code: String, _ outcome: String) {
            self.init(name, .script, code, outcome)
        }
    }

    static let attempts: [Attempt] = EscapeAttempts.bytecodeAndLoaders + EscapeAttempts.sharedTables
        + EscapeAttempts.environmentsAndFinalizers + EscapeAttempts.errorsAndCoroutines + EscapeAttempts.resources
        + EscapeAttempts.viewReferences + EscapeAttempts.hostChunkGlobals + EscapeAttempts.chargedCalls
        + EscapeAttempts.unconvertibleDestinations

    /// The app each attempt runs in: `x` runs the attempt as its enter handler; a coroutine made
    /// while the app loads, before any handler's hook, waits in `early`.
    private static func app(handler: String) -> String {
        """
        early = coroutine.create(function() while true do end end)
        early_wrap = coroutine.wrap(function() local n = 0 while true do n = n + 1 end end)
        portolan.app { id = "root", children = {
          { id = "a" },
          { id = "x", enter = function(node, entry, info)
        \(handler)
          end },
        } }
        """
    }

    private static func outcome(of attempt: Attempt) async throws -> (outcome: String, host: PortolanHost) {
        // A time limit no attempt reaches, even with the suite's attempts all running at once on a
        // busy machine: the budget and the memory cap must stop each, deterministically. (The hook's
        // time limit has its own test, HandlerTimeLimitTests.)
        let host = try PortolanHost(configuration: HostConfiguration(handlerTimeout: .seconds(600)))
        await host.setOutput { _ in }
        switch attempt.place {
        case .script:
            try await host.loadApp(.source(app(handler: ""), chunkName: "app.lua"))
            let result = try await host.run("""
                local ok, result = pcall(function()
                \(attempt.code)
                end)
                return (ok and "returned " or "raised ") .. (type(result) == "string" and result or type(result) .. " " .. tostring(rawequal(result, nil) and "nil" or result))
                """, chunkName: "attack.lua")
            return (result.first ?? "nothing", host)
        case .handler:
            try await host.loadApp(.source(app(handler: attempt.code), chunkName: "app.lua"))
            switch await host.route(.ids("root", "x")) {
            case .success(let instructions): return ("routed \(instructions)", host)
            case .failure(let failure): return ("failed \(failure)", host)
            }
        }
    }

    @Test(arguments: SandboxEscapeTests.attempts)
    func anEscapeAttemptEndsCleanlyAndTheHostLivesOn(_ attempt: Attempt) async throws {
        let (outcome, host) = try await Self.outcome(of: attempt)
        #expect(outcome.contains(attempt.outcome), "\(attempt.name): \(outcome)")
        let next = await host.route(.ids("root", "a"))
        #expect((try? next.get()) != nil, "\(attempt.name): the next route failed: \(next)")
    }

    @Test func theSuiteHasAtLeastFiftyAttempts() {
        #expect(Self.attempts.count >= 50)
    }

    /// Each scenario runs in a state of its own: one cannot leave anything for the next.
    @Test func twoHostsShareNothing() async throws {
        let first = try PortolanHost(), second = try PortolanHost()
        try await first.run("LEAK = 'secret' rawset(_G, 'RAW', 1)", chunkName: "a.lua")
        #expect(try await second.run("return LEAK, RAW, rawget(_G, 'LEAK')", chunkName: "b.lua") == ["nil", "nil", "nil"])
    }
}
