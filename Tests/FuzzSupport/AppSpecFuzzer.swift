import Portolan
import PortolanLua
import TestSupport

/// The property-based fuzzer of app loading: random app scripts (`AppSpecs`) loaded the way every
/// command loads an app (`PortolanHost.loadApp(.fileWithText(_:text:))`), each in a fresh host. Each must
/// load, and then its graph and tree keep their invariants through random routes
/// (`AppSpecCheck`), or fail with a `HostError` naming `app.lua` and a line, after which the same
/// host loads and routes a good app. Never a crash.
public final class AppSpecFuzzer {
    public let seed: UInt64
    public private(set) var report = AppSpecFuzzReport()
    /// One thread for every host, in turn (hosts are many, threads need not be).
    private let thread = SerialThread(name: "portolan.fuzz.apps")
    /// Where the app file lives, as far as the host knows (it is never written: the source is given).
    private let directory: TemporaryDirectory
    private let specs = AppSpecs()

    /// Hosts as the CLI makes them, with time and instruction limits so that no script can hang the run.
    static let configuration = HostConfiguration(
        handlerTimeout: .seconds(5), scriptInstructionBudget: 200_000_000, memoryLimit: 128 << 20)

    public init(seed: UInt64) throws {
        self.seed = seed
        directory = try TemporaryDirectory(files: [:])
    }

    /// Runs the inputs of `indices`; throws at the first that breaks a property. Runs on the
    /// caller's actor (the fuzzer is not `Sendable`); each script's checks run on its host's thread.
    public func run(_ indices: Range<Int>, isolation: isolated (any Actor)? = #isolation) async throws(FuzzFailure) {
        let check = AppSpecCheck(path: directory.path("app.lua"))
        for index in indices {
            var random = SeededRandom.forInput(index, seed: seed)
            let source = specs.make(&random)
            let routeSeed = random.next()
            let host: PortolanHost
            do {
                host = try PortolanHost(configuration: Self.configuration, thread: thread)
            } catch {
                throw FuzzFailure(fuzzer: "AppSpecFuzz", seed: seed, index: index, problem: "no host: \(error)", input: source)
            }
            let outcome = await host.perform { host in check.run(source, routeSeed: routeSeed, on: host) }
            report.add(outcome)
            if let problem = outcome.problem {
                throw FuzzFailure(fuzzer: "AppSpecFuzz", seed: seed, index: index, problem: problem, input: source)
            }
        }
    }
}

/// What one app script did.
public struct AppSpecOutcome: Sendable {
    public var loaded = false
    public var nodes = 0
    /// Routes run after loading, and how those that failed failed.
    public var routes = 0
    public var failures: [RouteFailure.Kind: Int] = [:]
    /// Why it was refused, when it was: the message without its place.
    public var refusal: String?
    /// The property it broke, if it broke one.
    public var problem: String?
}

/// What an app-spec run saw.
public struct AppSpecFuzzReport: CustomStringConvertible {
    public var specs = 0, loaded = 0, refused = 0, routes = 0, largestGraph = 0
    public var failures: [RouteFailure.Kind: Int] = [:]
    /// Refusals by cause: the message with its place, and what it quotes, left out.
    public var refusals: [String: Int] = [:]

    mutating func add(_ outcome: AppSpecOutcome) {
        specs += 1
        if outcome.loaded { loaded += 1 } else { refused += 1 }
        routes += outcome.routes
        largestGraph = max(largestGraph, outcome.nodes)
        failures.merge(outcome.failures, uniquingKeysWith: +)
        if let refusal = outcome.refusal { refusals[Self.cause(of: refusal), default: 0] += 1 }
    }

    /// `node 'n3': kind must be …` for `…/app.lua:7: node 'n3': kind must be "screen" or "switch", not tab`.
    static func cause(of message: String) -> String {
        let placeless = message.range(of: ": ").map { String(message[$0.upperBound...]) } ?? message
        var cause = ""
        var quoting = false
        for character in placeless.prefix(80) {
            if character == "'" { quoting.toggle(); cause.append(quoting ? "'…" : "'") } else if !quoting { cause.append(character) }
        }
        return cause.range(of: ", not ").map { String(cause[..<$0.lowerBound]) } ?? cause
    }

    /// The most frequent causes of refusal, `count` of them.
    public func commonRefusals(_ count: Int) -> String {
        refusals.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.prefix(count)
            .map { "  \($0.value)  \($0.key)" }.joined(separator: "\n")
    }

    public var description: String {
        let kinds = RouteFailure.Kind.allCases.compactMap { kind in failures[kind].map { "\(kind.rawValue) \($0)" } }
        return "\(specs) app scripts: \(loaded) loaded (largest \(largestGraph) nodes), \(refused) refused at a line of app.lua; "
            + "\(routes) routes in them, failed: \(kinds.isEmpty ? "none" : kinds.joined(separator: ", "))"
    }
}
