@testable import Portolan
import TestSupport
import PropertyBased
import Testing

/// `plan` tells the truth (issue 20, §2): over generated apps — a random graph, random guards
/// (interceptors that deny, redirect or throw for routes to some node, some only while a session
/// flag is set), `canLeave` vetoes that refuse or throw, and handlers and context tasks that count
/// their calls — a plan says exactly what the route right after it does: the same instructions
/// or the same failure, redirects and denials included, and the same redirects. The plan itself
/// runs no handler, context task or observer, and leaves the tree and the history as they were.
@Suite struct PlanTruthPropertyTests {
    @Test func aPlanIsWhatTheRouteThenDoes() async {
        await propertyCheck(count: 150, input: Gen.uint64(), Gen.int(in: 2...6), Gen.int(in: 1...25)) { seed, depth, steps in
            let failure = await PlanTruthApp.walk(seed: seed, maxDepth: depth, steps: steps)
            #expect(failure == nil, "\(failure ?? "")")
        }
    }

    /// The generator is not vacuous: across seeds, plans see redirects, denials, vetoes and
    /// successes alike.
    @Test func theWalksMeetEveryKindOfDecision() async {
        var kinds: [String: Int] = [:]
        for seed in UInt64(0)..<60 {
            let seen = await PlanTruthApp.outcomes(seed: seed, maxDepth: 5, steps: 25)
            kinds.merge(seen, uniquingKeysWith: +)
        }
        for kind in ["ok", "redirected", "denied", "blocked", "handler_failed"] {
            #expect(kinds[kind, default: 0] > 3, "\(kind): \(kinds)")
        }
    }
}

/// One generated app on a real router, and a walk of plan-then-route steps over it.
private final class PlanTruthApp: Sendable {
    /// What a guard does for a route that goes to its node.
    enum Action: Sendable {
        case deny, redirect(Destination), fail
    }

    struct Guard: Sendable {
        let id: NodeID
        /// Only while the session flag is this; always when nil.
        let whenFlag: Bool?
        let action: Action
    }

    let router: Router
    /// The session's state the decisions read: the walk flips it between steps, never a decision.
    let flag = Locked(false)
    /// Handler and context-task calls, and events: none may come from a plan.
    let effects = Locked(0)

    init(shape: RandomGraph, random: inout SeededRandom, destinations: () -> Destination) {
        router = Router(graph: shape.graph)
        var guards: [Guard] = []
        for _ in 0..<random.below(4) {
            guard let id = random.pick(shape.ids), id != shape.graph.rootID else { continue }
            let whenFlag: Bool? = random.chance(0.3) ? nil : random.chance(0.5)
            let action: Action = switch random.below(10) {
            case 0..<4: .deny
            case 4..<9: .redirect(destinations())
            default: .fail
            }
            guards.append(Guard(id: id, whenFlag: whenFlag, action: action))
        }
        let vetoed = Set((0..<random.below(3)).compactMap { _ in random.pick(shape.ids) })
        let (flag, effects, rules) = (flag, effects, guards)
        router.addInterceptor(InterceptorHandler { request in
            for rule in rules where request.goes(to: rule.id) && (rule.whenFlag == nil || rule.whenFlag == flag.value) {
                switch rule.action {
                case .deny: return .deny("no entry to \(rule.id)")
                case .redirect(let target): return .redirect(target)
                case .fail: throw HandlerError("the guard of \(rule.id) broke")
                }
            }
            return .pass
        })
        let count: @Sendable () -> Void = { effects.withLock { $0 += 1 } }
        for id in shape.ids {
            let canLeave: (@Sendable (Entry) throws -> Bool)? = vetoed.contains(id) ? { @Sendable _ in
                if id.hasSuffix("3") { throw HandlerError("can_leave of \(id) broke") }
                return flag.value
            } : nil
            router.bind(NodeHandlers(
                enter: { _, _ in count() }, leave: { _, _ in count() }, switchTo: { _, _ in count() },
                canLeave: canLeave, contextTask: { _, _ in count() }), to: id)
        }
        router.observe { _ in count() }
    }

    /// Walks `steps` plan-then-route steps; nil when the plan always told the truth, else what it missed.
    static func walk(seed: UInt64, maxDepth: Int, steps: Int) async -> String? {
        var outcomes: [String: Int] = [:]
        return await walk(seed: seed, maxDepth: maxDepth, steps: steps, outcomes: &outcomes)
    }

    /// What the plans of a walk said, by kind (`ok`, `redirected`, or a failure's kind).
    static func outcomes(seed: UInt64, maxDepth: Int, steps: Int) async -> [String: Int] {
        var outcomes: [String: Int] = [:]
        _ = await walk(seed: seed, maxDepth: maxDepth, steps: steps, outcomes: &outcomes)
        return outcomes
    }

    private static func walk(seed: UInt64, maxDepth: Int, steps: Int, outcomes: inout [String: Int]) async -> String? {
        let shape: RandomGraph
        do {
            shape = try RandomGraph(seed: seed, maxDepth: maxDepth)
        } catch {
            return "the generator made an invalid graph: \(error)"
        }
        var draw = RandomWalk(shape: shape, seed: seed, mix: .routesOnly)
        var random = SeededRandom(seed: seed ^ 0xA5A5_5A5A)
        let app = PlanTruthApp(shape: shape, random: &random) { draw.randomDestination() }
        for step in 0..<steps {
            if random.chance(0.3) { app.flag.withLock { $0.toggle() } }
            draw.tree = app.router.tree
            let destination = draw.randomDestination()
            if let miss = await app.check(destination, outcomes: &outcomes) {
                return "step \(step + 1), to \(destination) (flag \(app.flag.value)): \(miss)"
            }
        }
        return nil
    }

    /// Plans, then routes, to `destination`: what the plan got wrong, or nil.
    private func check(_ destination: Destination, outcomes: inout [String: Int]) async -> String? {
        let (tree, history, effectsBefore) = (router.tree, router.history.count, effects.value)
        let plan = await router.plan(to: destination)
        if router.tree.root != tree.root { return "the plan changed the tree" }
        if router.history.count != history { return "the plan entered the history" }
        if effects.value != effectsBefore { return "the plan ran \(effects.value - effectsBefore) handlers, tasks or observers" }
        let redirects = Locked<[Destination]>([])
        let watching = Locked(true)
        router.observe { event in
            guard watching.value, case .redirected(_, let target) = event else { return }
            redirects.withLock { $0.append(target) }
        }
        let result = await router.route(to: destination)
        watching.withLock { $0 = false }
        outcomes[plan.redirects.isEmpty ? (result.failure?.kind.rawValue ?? "ok") : "redirected", default: 0] += 1
        if plan.result != result { return "planned \(plan.result), but the route did \(result)" }
        if plan.redirects != redirects.value { return "planned redirects \(plan.redirects), but the route took \(redirects.value)" }
        if case .success = result, router.history.last?.settled != plan.settled {
            return "planned to settle on \(plan.settled), but the route settled on \(router.history.last?.settled as Any)"
        }
        return nil
    }
}
