import Foundation
import Portolan
import PortolanLua
import Synchronization
import Testing
import TestSupport

/// One route, one unit of work: the defects the execution model fixed, each reproduced as it was
/// found. Limits here are generous on purpose: they hold on a loaded 2-core machine, and a wait
/// that is cut short is checked against the far longer wait it would have been.
@Suite struct ExecutionModelTests {
    /// Lines the app's handlers log through a Swift function, in the order they ran.
    final class Log: Sendable {
        private let lines = Mutex<[String]>([])
        func append(_ line: String) { lines.withLock { $0.append(line) } }
        var all: [String] { lines.withLock { $0 } }
    }

    private func host(_ log: Log, timeout: Duration = .seconds(60)) async throws -> PortolanHost {
        let host = try await PortolanHost.quiet(configuration: .init(handlerTimeout: timeout))
        try await host.register(function: "log") { arguments in
            log.append(arguments.compactMap(\.stringValue).joined(separator: " "))
            return []
        }
        return host
    }

    private static func app(version: String, waitInA: Double) -> String {
        """
        portolan.app { id = "root", children = {
          { id = "a", enter = function() log("\(version) enter a") portolan.wait(\(waitInA)) end, children = {
            { id = "b", enter = function() log("\(version) enter b") end },
          } },
        } }
        """
    }

    private static let rootAB = Destination.path(["root", "a", "b"])

    /// Waits (off the host) until `log` has a line with `text`; false after `limit`.
    private static func waitFor(_ text: String, in log: Log, limit: Duration = .seconds(60)) async -> Bool {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            if log.all.contains(where: { $0.contains(text) }) { return true }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return false
    }

    // Defect 1: a reload that arrives while a handler waits runs after the route, not inside it.
    @Test func aReloadDuringARouteWaitsForItToEnd() async throws {
        let log = Log()
        let host = try await host(log)
        try await host.loadApp(.source(Self.app(version: "v1", waitInA: 0.3), chunkName: "app.lua"))
        let route = Task { await host.route(Self.rootAB) }
        #expect(await Self.waitFor("v1 enter a", in: log))
        _ = try await host.reload(.source(Self.app(version: "v2", waitInA: 0), chunkName: "app.lua"))
        let result = await route.value
        #expect(result.success == [.enter("a"), .enter("b")])
        #expect(log.all == ["v1 enter a", "v1 enter b"], "the whole route ran v1's rules")
        #expect(await host.router?.activePath == ["root", "a", "b"])
        _ = await host.route(.path(["root"]))
        _ = await host.route(Self.rootAB)
        #expect(log.all.suffix(2) == ["v2 enter a", "v2 enter b"], "the next route runs v2's")
    }

    // Defect 2: numbers a script hands Swift are checked, never a trap.
    @Test func hugeAndNaNWaitsAreErrorsNotCrashes() async throws {
        let log = Log()
        let host = try await host(log)
        try await host.loadApp(.source("""
            portolan.app { id = "root", children = {
              { id = "huge", enter = function() portolan.wait(math.huge) end },
              { id = "big", enter = function() portolan.wait(1e20) end },
              { id = "nan", enter = function() coroutine.yield("\\0portolan", "wait", 0/0) end },
            } }
            """, chunkName: "app.lua"))
        // The module names the caller's line; a raw yield that bypasses it fails as a yield from
        // Lua's main thread does, since a handler is that to its script.
        let expected = [
            "huge": "app.lua:2: portolan.wait expects a number of seconds from 0 to 1000000000, not inf",
            "big": "app.lua:3: portolan.wait expects a number of seconds from 0 to 1000000000, not 1e+20",
            "nan": "attempt to yield from outside a coroutine",
        ]
        for (id, message) in expected {
            let failure = await host.route(.path(["root", Entry(id)])).failure
            #expect(failure?.kind == .handlerFailed, "\(id)")
            #expect(failure?.message.hasPrefix(message) == true, "\(id): \(failure?.message ?? "")")
        }
        for chunk in ["portolan.wait(1e20)", "portolan.wait(math.huge)"] {
            do {
                _ = try await host.evaluate(chunk)
                Issue.record("\(chunk) should fail")
            } catch {
                #expect(error.message.contains("portolan.wait expects"), "\(chunk): \(error.message)")
            }
        }
        // A script's raw yield of the marker never reaches the host: a main flow is, to its script,
        // Lua's main thread, and a pcall around the yield holds (issue 34).
        let raw = try await host.evaluate(#"pcall(coroutine.yield, "\0portolan", "wait", 1e300)"#)
        #expect(raw == ["false", #""attempt to yield from outside a coroutine""#], "\(raw)")
        #expect(try await host.evaluate("1 + 1") == ["2"], "the host lives on")
    }

    // Defect 3: routes queued by observers run before the outer route returns, in causal order.
    @Test func observerRoutesRunBeforeTheOuterRouteReturnsInCausalOrder() async throws {
        let host = try await host(Log())
        try await host.loadApp(.source("""
            portolan.app { id = "root", children = { { id = "a" }, { id = "b" }, { id = "c" } } }
            events = {}
            local function last(path) return path[#path].id end
            portolan.on("will_route", function(dest) events[#events + 1] = "will " .. last(dest) end)
            portolan.on("did_route", function(_, dest)
              events[#events + 1] = "did " .. last(dest)
              if last(dest) == "a" then portolan.route { "root", "b" } end
            end)
            portolan.on("failed", function(err, dest)
              events[#events + 1] = "failed " .. last(dest)
              portolan.route { "root", "c" }
            end)
            """, chunkName: "app.lua"))
        let result = try await host.run("""
            assert(portolan.route { "root", "a" })
            local after_a = table.concat(portolan.active_path(), ">")
            portolan.route { "root", "nowhere" }
            return table.concat(events, ", "), after_a, table.concat(portolan.active_path(), ">")
            """, chunkName: "s.lua")
        #expect(result == [
            #""will a, did a, will b, did b, will nowhere, failed nowhere, will c, did c""#,
            #""root>b""#, #""root>c""#,
        ])
    }

    // Defect 4: an interrupt (Ctrl-C) ends a wait at once, in a script and in a route's handler.
    @Test func anInterruptEndsAWaitAtOnce() async throws {
        let log = Log()
        let host = try await host(log)
        try await host.loadApp(.source(Self.app(version: "v1", waitInA: 600), chunkName: "app.lua"))
        let clock = ContinuousClock()
        let start = clock.now
        let script = Task { try await host.evaluate(#"log("waiting") portolan.wait(600)"#) }
        #expect(await Self.waitFor("waiting", in: log))
        host.interruption.request()
        await #expect(throws: HostError.self) { try await script.value }
        let route = Task { await host.route(Self.rootAB) }
        #expect(await Self.waitFor("v1 enter a", in: log))
        host.interruption.request()
        let failure = await route.value.failure
        #expect(failure?.kind == .cancelled)
        #expect(failure?.instruction == .enter("a"))
        #expect(clock.now - start < .seconds(300), "both waits of 600 s were cut")
        #expect(await host.router?.activePath == ["root"], "the tree keeps what ran")
        #expect(try await host.evaluate("1 + 1") == ["2"], "the host lives on")
    }

    // Defect 4, from Swift: cancelling the task that awaits a route ends its handler's wait.
    @Test func cancellingTheCallerEndsAWaitingRoute() async throws {
        let log = Log()
        let host = try await host(log)
        try await host.loadApp(.source(Self.app(version: "v1", waitInA: 600), chunkName: "app.lua"))
        let route = Task { await host.route(Self.rootAB) }
        #expect(await Self.waitFor("v1 enter a", in: log))
        route.cancel()
        let failure = await route.value.failure
        #expect(failure?.kind == .cancelled)
        #expect(await host.route(.path(["root"])).success == [], "the host lives on")
    }

    // Defect 5: Lua runs on the host's own thread, so a script that never yields leaves Swift's
    // cooperative pool free: with a looping host per core, pool tasks still run.
    @Test func loopingScriptsLeaveTheCooperativePoolFree() async throws {
        let cores = max(2, ProcessInfo.processInfo.activeProcessorCount)
        var hosts: [PortolanHost] = []
        var loops: [Task<Void, Never>] = []
        for _ in 0..<cores {
            let host = try PortolanHost()
            hosts.append(host)
            loops.append(Task { _ = try? await host.evaluate("while true do end") })
        }
        // Give the loops time to take their threads, then ask the pool for work.
        try await Task.sleep(for: .milliseconds(200))
        let poolAnswer = await Task.detached { (1...1000).reduce(0, +) }.value
        let stillLooping = Mutex(true)
        // `hosts` by value: a captured `var` stays a shared box when capture promotion does not run,
        // as under `-sanitize=thread`, and the compiler then rightly refuses to send it.
        let watchdog = Task.detached { [hosts] in
            try? await Task.sleep(for: .seconds(60))
            stillLooping.withLock { $0 = false }
            for host in hosts { host.interruption.request() }
        }
        #expect(poolAnswer == 500_500)
        #expect(stillLooping.withLock { $0 }, "the pool answered while every host looped")
        for host in hosts { host.interruption.request() }
        for loop in loops { await loop.value }
        watchdog.cancel()
    }
}
