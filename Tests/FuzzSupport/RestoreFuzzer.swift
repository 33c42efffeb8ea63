import Portolan
import PortolanLua
import TestSupport

/// The fuzzer of restore (issue 21's hostile bytes): valid snapshots of an app with kept stacks,
/// screens pushed over themselves and a guard, mutated at random (bytes flipped, cut, spliced,
/// repeated; numbers, strings and brackets swapped for hostile ones), each fed to
/// `PortolanHost.restore`. Properties: it returns (no crash, no throw); a refusal leaves the host's
/// state byte for byte as it was; a restore that is not refused leaves a state that snapshots and
/// restores as itself. The tests run a short share; `Benchmarks/Sources/RestoreFuzz` the long run.
public final class RestoreFuzzer {
    public let seed: UInt64
    public private(set) var refused = 0
    public private(set) var accepted = 0
    private let host: PortolanHost
    private var seeds: [[UInt8]] = []
    private var baseline: [UInt8] = []

    static let app = """
        allowed = true
        portolan.app { id = "root", version = 2, migrations = { [2] = { renamed = { old = "list" } } },
          children = {
            { id = "tabs", kind = "switch", keep = true, back = "history",
              guard = function(node, request) if not allowed then return false end end,
              children = {
                { id = "home", children = { { id = "item", push = { "item" }, children = { { id = "detail" } } } } },
                { id = "search", children = { { id = "list" } } },
              } },
            { id = "login" },
          } }
        """

    public init(seed: UInt64, isolation: isolated (any Actor)? = #isolation) async throws {
        self.seed = seed
        host = try PortolanHost(configuration: HostConfiguration(handlerTimeout: .seconds(5)))
        await host.setOutput { _ in }
        try await host.loadApp(.source(Self.app, chunkName: "app.lua"))
        for route in [
            #"assert(portolan.route { "root", "tabs", "home", { id = "item", context = { id = 1, r = 0.25 } }, "detail" })"#,
            #"assert(portolan.route { "root", "tabs", "search", "list" })"#,
            #"assert(portolan.route { "root", "tabs", "home", { id = "item", context = { id = 1 } } }); assert(portolan.push({ id = "item", context = { id = 2 } }))"#,
            #"assert(portolan.route { "root", "login" })"#,
        ] {
            _ = try await host.run(route, chunkName: "seed.lua")
            seeds.append(try await host.snapshotBytes())
        }
        baseline = seeds[0]
        _ = await host.restore(baseline)
        baseline = try await host.snapshotBytes()
    }

    /// Runs the inputs of `indices`; throws at the first that breaks a property.
    public func run(_ indices: Range<Int>, isolation: isolated (any Actor)? = #isolation) async throws(FuzzFailure) {
        let seeds = self.seeds, seed = self.seed
        let start = self.baseline
        let result: (refused: Int, accepted: Int, baseline: [UInt8], failure: FuzzFailure?) = await host.perform { host in
            var refused = 0, accepted = 0
            var baseline = start
            for index in indices {
                var random = SeededRandom.forInput(index, seed: seed)
                let input = Self.mutate(random.pick(seeds) ?? [], &random)
                let outcome = host.restore(input)
                let after = (try? host.snapshotBytes()) ?? []
                if case .refused = outcome {
                    refused += 1
                    if after != baseline {
                        return (refused, accepted, baseline, FuzzFailure(
                            fuzzer: "RestoreFuzz", seed: seed, index: index, problem: "a refusal changed the state (\(outcome))",
                            input: String(decoding: input, as: UTF8.self)))
                    }
                    continue
                }
                accepted += 1
                // What a restore accepted is a state: it restores as itself.
                let again = host.restore(after)
                if again.name == "refused" || (try? host.snapshotBytes()) != after {
                    return (refused, accepted, baseline, FuzzFailure(
                        fuzzer: "RestoreFuzz", seed: seed, index: index, problem: "an accepted state does not restore as itself (\(again))",
                        input: String(decoding: input, as: UTF8.self)))
                }
                _ = host.restore(baseline)
                baseline = (try? host.snapshotBytes()) ?? baseline
            }
            return (refused, accepted, baseline, nil)
        }
        refused += result.refused
        accepted += result.accepted
        baseline = result.baseline
        if let failure = result.failure { throw failure }
    }

    private static let hostile: [String] = [
        "null", "true", "-0", "1e400", "-1e400", "9223372036854775808", "1.5", "\"\"", "[]", "{}", "[[[[[[[[", "]]]]",
        "\"\\u0000\"", "\"\\ud800\"", "{\"id\":\"\"}", "{\"id\":\"ghost\"}", "\"portolan-snapshot/2\"", "99999999999", "-1", "0",
    ]

    /// One to four mutations of a valid document.
    static func mutate(_ document: [UInt8], _ random: inout SeededRandom) -> [UInt8] {
        let inserts = hostile.map { Array($0.utf8) }
        return ByteMutation.mutate(document, hostile: inserts, punctuation: Array("{}[]\":,0123456789-.eE\\ ".utf8), with: &random) {
            bytes, at, random in
            // A value swapped: from a separator to the next one.
            let end = bytes[at...].firstIndex { [UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]")].contains($0) } ?? bytes.count
            bytes.replaceSubrange(at..<end, with: Array((random.pick(hostile) ?? "").utf8))
        }
    }
}
