import Lua
import Portolan
import PortolanLua
import Synchronization

/// One fresh host the explorer runs actions in, inside one unit of work (`perform`): it knows which
/// state is live, restores another with the snapshot restore, and performs actions, collecting the
/// route failures each causes from the router's events.
struct ExploreHostSession {
    private let failures: FailureLog
    /// The state live now, when known.
    private(set) var live: ExploreState?

    /// The chunk the steps and state changes run: in the host's environment, so that what it calls
    /// is the module's, whatever globals the app rebinds.
    private static let chunk = """
        local portolan = require "portolan"
        local what, a, b = ...
        if what == "step" then return portolan.step(a, b) end
        portolan.state[a] = b
        """

    init(host: isolated PortolanHost, seed: Int) throws(HostError) {
        let log = FailureLog()
        failures = log
        host.setOutput { _ in }
        host.observeEvents { event in
            if case .failed(_, let failure) = event { log.add(failure) }
        }
        _ = try host.call("math.randomseed(...)", chunkName: "=explore", arguments: [.integer(Int64(seed))], environment: .host)
        live = Self.capture(host).state
    }

    /// The state the host is in now: its snapshot, or why it cannot be taken.
    static func capture(_ host: isolated PortolanHost) -> (state: ExploreState?, error: String?) {
        do {
            let document = try host.snapshot()
            return (try ExploreState(document: document, path: host.router?.activePath ?? []), nil)
        } catch {
            return (nil, error.reason)
        }
    }

    /// Why a restore did not give a state back, and what tells this cause from others: a guard
    /// loop refuses the restores of every state it holds, and is one cause however it is entered.
    struct RestoreLoss {
        var why: String
        var cause: String
    }

    /// Makes `state` the live one, restoring it when another is: nil when it is live, else why not
    /// (the restore's outcome and where it left the app).
    /// A restore that lands elsewhere is tried once more from where it landed: what the live
    /// state's handlers did as it was left (a route they asked for) is not the restored state's.
    mutating func make(live state: ExploreState, in host: isolated PortolanHost) -> RestoreLoss? {
        if live?.fingerprint == state.fingerprint { return nil }
        failures.clear()
        var outcome = host.restore(state.document)
        var now = Self.capture(host)
        if now.state?.fingerprint != state.fingerprint {
            outcome = host.restore(state.document)
            now = Self.capture(host)
        }
        live = now.state
        let loop = failures.taken().lazy.compactMap(\.redirectLoop).first
        if now.state?.fingerprint == state.fingerprint { return nil }
        let landed = now.state.map { "the app is at \($0.pathText)" } ?? (now.error ?? "no snapshot")
        let why: String
        if case .refused = outcome {
            why = "restore \(outcome); \(landed)"
        } else if now.state?.path == state.path {
            why = "restore \(outcome); the path is the same, the rest of the snapshot differs"
        } else {
            why = "restore \(outcome); \(landed), not \(state.pathText)"
        }
        return RestoreLoss(why: why, cause: loop.map(ExploreChecks.cycleKey) ?? String(why.prefix { $0 != ";" }))
    }

    /// Performs `action` in the live state (planning it first when it has a destination).
    mutating func perform(_ action: ExploreAction, in host: isolated PortolanHost) -> ExploreOutcome {
        let plan = Self.planned(action, host)
        failures.clear()
        let result = Self.run(action, host)
        let now = Self.capture(host)
        live = now.state
        return ExploreOutcome(result: result, failures: failures.taken(), after: now.state, afterError: now.error, plan: plan)
    }

    /// A step is not planned: its plan would ask the app's flows once more than the route does, and
    /// a flow that decides at random would then show as a plan that disagrees, not as the
    /// nondeterminism it is.
    private static func planned(_ action: ExploreAction, _ host: isolated PortolanHost) -> RoutePlan? {
        switch action {
        case .route(let destination): host.plan(destination)
        case .url(let url): host.plan(url: url)
        default: nil
        }
    }

    private static func run(_ action: ExploreAction, _ host: isolated PortolanHost) -> ExploreOutcome.Result {
        switch action {
        case .route(let destination): return .init(host.route(destination))
        case .url(let url): return .init(host.route(url: url))
        case .back: return .init(host.back())
        case .refresh: return .init(host.refresh())
        case .resume: return host.resume().map(ExploreOutcome.Result.init) ?? .nothing
        case .tab(let switchID, let child):
            guard let router = host.router else { return .failed(kind: "unreachable", message: "no app") }
            do {
                return .init(host.route(try router.tree.destination(switching: switchID, to: child)))
            } catch {
                return .failed(kind: error.kind.rawValue, message: error.description)
            }
        case .step(let name, let payload):
            return lua(host, ["step", .string(name), Entry(name, context: payload).luaContext])
        case .setState(let key, let value):
            if case .failed(let kind, let message) = lua(host, ["state", .string(key), AppStateValue.lua(from: value)]) {
                return .failed(kind: kind, message: message)
            }
            return .init(host.refresh())
        }
    }

    /// Runs the chunk; a step's result as `portolan.step` returns it.
    private static func lua(_ host: isolated PortolanHost, _ arguments: [LuaValue]) -> ExploreOutcome.Result {
        do {
            let values = try host.call(Self.chunk, chunkName: "=explore", arguments: arguments, environment: .host)
            guard let first = values.first else { return .nothing }
            if case .table = first {
                return .routed((first.arrayValue ?? []).map { $0.stringValue ?? "\($0)" })
            }
            let error = values.count > 1 ? values[1] : .nil
            guard case .table = error else { return .nothing }
            return .failed(kind: error["kind"].stringValue ?? "?", message: error["message"].stringValue ?? "")
        } catch {
            return .failed(kind: "error", message: error.message)
        }
    }
}

/// The route failures of the running action, as the router's events tell them.
final class FailureLog: Sendable {
    private let failures = Mutex<[RouteFailure]>([])
    func add(_ failure: RouteFailure) { failures.withLock { $0.append(failure) } }
    func clear() { failures.withLock { $0.removeAll() } }
    func taken() -> [RouteFailure] { failures.withLock { list in defer { list.removeAll() }; return list } }
}

extension Entry {
    /// The context as a Lua table, empty when there is none.
    var luaContext: LuaValue {
        var table: [LuaValue: LuaValue] = [:]
        for (key, value) in context {
            switch value {
            case .string(let text): table[.string(key)] = .string(text)
            case .integer(let integer): table[.string(key)] = .integer(integer)
            case .number(let number): table[.string(key)] = .number(number)
            case .boolean(let flag): table[.string(key)] = .boolean(flag)
            }
        }
        return .table(table)
    }
}

extension ExploreHostSession {
    /// Forgets which state is live, after something ran outside `perform` (the check of `back`).
    mutating func forget() { live = nil }
}
