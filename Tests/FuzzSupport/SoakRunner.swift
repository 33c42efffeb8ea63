import Portolan
import PortolanLua

/// The soak (issue 10): many random routes over apps loaded once (the demo app, the Portus tree
/// and the soak's own failing app), each app in a host of its own, in batches of 100 routes
/// dealt by weight (9 : 7 : 4). After every route the tree's invariants are checked
/// (`SoakDriver`, `TreeWitness`); every `sampleEvery` routes each host's Lua heap (after a full
/// collection) and the process's RSS are sampled.
public final class SoakRunner {
    public let seed: UInt64
    public let sampleEvery: Int
    public private(set) var counts = SoakCounts()
    public private(set) var samples: [SoakSample] = []
    private let subjects: [Subject]
    /// Which subject runs each batch of a cycle of 20 batches: the weights, dealt out.
    private let deal: [Int]

    private struct Subject {
        let app: SoakedApp
        let host: PortolanHost
        let driver: SoakDriver
    }

    private static let batch = 100

    /// Loads each app in a fresh host; `sampleEvery` is rounded up to whole batches.
    public init(apps: [(SoakedApp, weight: Int)], seed: UInt64, sampleEvery: Int) async throws {
        self.seed = seed
        self.sampleEvery = max(1, (sampleEvery + Self.batch - 1) / Self.batch) * Self.batch
        var subjects: [Subject] = []
        for (app, _) in apps {
            let host = try PortolanHost(configuration: HostConfiguration(handlerTimeout: .seconds(5)))
            await host.setOutput { _ in }
            if let file = app.file {
                try await host.loadApp(.file(file))
            } else {
                try await host.loadApp(.source(String(decoding: PackageResources.SoakApp_lua, as: UTF8.self), chunkName: "SoakApp.lua"))
            }
            guard let witness = await host.perform({ host in host.router.map(TreeWitness.init) }) else {
                throw SoakSetupError(message: "\(app.name) declared no app")
            }
            subjects.append(Subject(app: app, host: host, driver: SoakDriver(app: app, witness: witness, seed: seed)))
        }
        self.subjects = subjects
        deal = apps.enumerated().flatMap { index, app in Array(repeating: index, count: max(0, app.weight)) }
        samples.append(await sample(routes: 0))
    }

    /// The names of the apps, in the order of each sample's figures.
    public var appNames: [String] { subjects.map(\.app.name) }

    /// What the apps' routers reported, summed: routes run (those queued by handlers included),
    /// redirects by guards and interceptors, failed routes undone in full and checked. Read
    /// between runs only.
    public var witnessed: (routes: Int, redirects: Int, rollbacks: Int) {
        subjects.map(\.driver.witness).reduce((0, 0, 0)) { sum, witness in
            (sum.0 + witness.routesStarted, sum.1 + witness.redirects, sum.2 + witness.rollbacksChecked)
        }
    }

    /// Runs `routes` more routes; `onSample` sees each sample as it is taken. Throws at the first
    /// broken invariant, naming the route.
    public func run(routes: Int, onSample: (SoakSample) -> Void = { _ in }) async throws(FuzzFailure) {
        let first = counts.routes
        var next = first
        while next < first + routes {
            let end = min(next + Self.batch, first + routes)
            let subject = subjects[deal.isEmpty ? 0 : deal[(next / Self.batch) % deal.count]]
            let (driver, batch) = (subject.driver, next..<end)
            let (batchCounts, problem) = await subject.host.perform { host in driver.run(batch, on: host) }
            counts.add(batchCounts)
            if let (index, message) = problem {
                throw FuzzFailure(
                    fuzzer: "Soak", seed: seed, index: index, problem: "\(subject.app.name): \(message)", input: "route \(index)",
                    reproducesAlone: false)
            }
            next = end
            if next % sampleEvery == 0 || next == first + routes {
                samples.append(await sample(routes: next))
                onSample(samples[samples.count - 1])
            }
        }
    }

    private func sample(routes: Int) async -> SoakSample {
        var lua: [Int] = []
        for subject in subjects {
            let logs = subject.app.logs
            lua.append(await subject.host.perform { host in
                for log in logs {
                    _ = try? host.call("_G[...] = {}", chunkName: "=soak", arguments: [.string(log)])
                }
                return host.luaMemoryUsed(collectingGarbage: true)
            })
        }
        return SoakSample(routes: routes, luaBytes: lua, residentBytes: ProcessMemory.residentBytes)
    }
}

/// The soak could not start: an app did not load or declared nothing.
public struct SoakSetupError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}
