import Foundation
import Portolan
import PortolanLua
import Synchronization
import Testing

/// The second attack (issue 18): attempts made as a different attacker would, in classes the first
/// escape suite does not cover. Each says what its blocked ending looks like; one that gets through
/// today carries `status: .escapes(…)`, naming the finding of issue 18 it falls under or `NEW`, so
/// that the suite records it instead of failing, and the lead flips it to `.blocked` once fixed.
struct SecondAttempt: Sendable, CustomTestStringConvertible {
    enum Place: Sendable { case script, handler }

    enum Status: Sendable, Equatable {
        case blocked
        /// Gets through today: "finding N: …" for a known door, "NEW: …" for one issue 18 does not name.
        case escapes(String)
    }

    let attackClass: String
    let name: String
    let place: Place
    let code: String
    /// Any of these in the outcome is the blocked ending: an error naming the cause, or a harmless result.
    let blockedEndings: [String]
    var status: Status = .blocked
    var testDescription: String { "\(attackClass): \(name)" }

    init(_ attackClass: String, _ name: String, _ place: Place, _ code: String, blocked endings: [String]) {
        self.attackClass = attackClass
        self.name = name
        self.place = place
        self.code = code
        self.blockedEndings = endings
    }

    init(_ attackClass: String, _ name: String, _ place: Place, _ code: String, blocked endings: String...) {
        self.init(attackClass, name, place, code, blocked: endings)
    }

    init(_ attackClass: String, _ name: String, _ code: String, blocked endings: String...) {
        self.init(attackClass, name, .script, code, blocked: endings)
    }

    func escapes(_ why: String) -> SecondAttempt {
        var copy = self
        copy.status = .escapes(why)
        return copy
    }

    var isKnownEscape: Bool { status != .blocked }
}

/// How one attempt ended, as the table counts it.
enum AttemptResult: String, Sendable, CaseIterable {
    case blocked, escaped, crash, hang
}

/// Runs attempts in a host with small limits, so that a limit that holds shows within a bounded
/// amount of work: 200,000 instructions for a handler and for a script, 64 MiB of Lua memory.
enum SecondAttackHarness {
    static let budget = 200_000
    static let configuration = HostConfiguration(
        handlerTimeout: .seconds(5), handlerInstructionBudget: budget, scriptInstructionBudget: budget,
        memoryLimit: 64 << 20)

    /// The app each attempt runs in: `x` runs the attempt as its enter handler (with `node`,
    /// `entry`, `info`); `HANDLER`, when a script sets it, runs there too.
    static func app(handler: String) -> String {
        """
        portolan.app { id = "root", children = {
          { id = "a" },
          { id = "x", enter = function(node, entry, info)
            if HANDLER then return HANDLER(node, entry, info) end
        \(handler)
          end },
        } }
        """
    }

    /// Set by the watchdog when it interrupted the host.
    final class CutFlag: Sendable {
        let value = Atomic<Bool>(false)
    }

    struct Ending: Sendable {
        var outcome: String
        var nextRouteWorked: Bool
        var cut: Bool
    }

    /// Runs `attempt`; when `watchdog` is given, the host is interrupted after that long (only the
    /// table's classification uses it, to end an attempt that hangs today; no test asserts on time).
    static func run(_ attempt: SecondAttempt, watchdog: Duration? = nil) async throws -> Ending {
        let host = try PortolanHost(configuration: configuration)
        await host.setOutput { _ in }
        let cut = CutFlag()
        let dog = watchdog.map { limit in
            Task {
                try await Task.sleep(for: limit)
                cut.value.store(true, ordering: .relaxed)
                host.interruption.request()
            }
        }
        let outcome = try await outcome(of: attempt, in: host)
        dog?.cancel()
        let next = await host.route(.ids("root", "a"))
        return Ending(outcome: outcome, nextRouteWorked: (try? next.get()) != nil, cut: cut.value.load(ordering: .relaxed))
    }

    private static func outcome(of attempt: SecondAttempt, in host: PortolanHost) async throws -> String {
        switch attempt.place {
        case .script:
            try await host.loadApp(.source(app(handler: ""), chunkName: "app.lua"))
            do {
                let result = try await host.run("""
                    local ok, result = pcall(function()
                    \(attempt.code)
                    end)
                    local shown = type(result) == "string" and result or type(result) .. " " .. tostring(result)
                    return (ok and "returned " or "raised ") .. string.sub(shown, 1, 2000)
                    """, chunkName: "attack.lua")
                return result.first ?? "nothing"
            } catch {
                return "ended the script: \(String(error.message.prefix(2000)))"
            }
        case .handler:
            try await host.loadApp(.source(app(handler: attempt.code), chunkName: "app.lua"))
            switch await host.route(.ids("root", "x")) {
            case .success(let instructions): return "routed \(instructions.count)"
            case .failure(let failure): return "failed \(String("\(failure)".prefix(2000)))"
            }
        }
    }

    static func isBlocked(_ attempt: SecondAttempt, _ ending: Ending) -> Bool {
        ending.nextRouteWorked && attempt.blockedEndings.contains { ending.outcome.contains($0) }
    }

    static func classify(_ attempt: SecondAttempt, _ ending: Ending) -> AttemptResult {
        if ending.cut { return .hang }
        return isBlocked(attempt, ending) ? .blocked : .escaped
    }
}
