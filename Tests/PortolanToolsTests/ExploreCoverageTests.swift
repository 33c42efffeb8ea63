import Portolan
import PortolanLua
@testable import PortolanTools
import Testing
import TestSupport

/// What `portolan explore` visits: every state within the depth limit of generated apps, against
/// an independent count; the app's declared state changes; the limits it reports; a start from a
/// snapshot; the root's `explore` option refused when malformed.
@Suite struct ExploreCoverageTests {
    private let scratch: TemporaryDirectory

    init() throws {
        scratch = try TemporaryDirectory("explore")
    }

    /// A random tree of screens below a root screen, and random keys of declared state with two or
    /// three values each. Its states are independent of the explorer: every node's path from the
    /// root with every combination of the state's values, each one route and a state change or
    /// two away from the start.
    static func generated(_ index: Int) -> (source: String, states: Int, depth: Int) {
        var random = SeededRandom.forInput(index, seed: 23)
        let count = Int.random(in: 2...18, using: &random)
        var children: [[Int]] = Array(repeating: [], count: count)
        for node in 1..<count { children[Int.random(in: 0..<node, using: &random)].append(node) }
        func table(_ node: Int) -> String {
            let below = children[node].map(table).joined(separator: ", ")
            return "{ id = \"n\(node)\"" + (below.isEmpty ? "" : ", children = { \(below) }") + " }"
        }
        let keys = Int.random(in: 0...2, using: &random)
        var values: [Int] = []
        var state: [String] = []
        for key in 0..<keys {
            let options = Int.random(in: 2...3, using: &random)
            values.append(options)
            state.append("k\(key) = { " + (0..<options).map { "\"v\($0)\"" }.joined(separator: ", ") + " }")
        }
        var root = table(0)
        root.removeLast(2)
        let source = "portolan.app " + root + ", explore = { state = { " + state.joined(separator: ", ") + " } } }\n"
            + (keys > 0 ? "portolan.initial_state { " + (0..<keys).map { "k\($0) = \"v0\"" }.joined(separator: ", ") + " }\n" : "")
        return (source, count * values.reduce(1, *), 1 + keys)
    }

    @Test(arguments: 0..<12) func everyStateOfAGeneratedAppIsVisited(_ index: Int) async throws {
        let generated = Self.generated(index)
        let path = try scratch.write("generated\(index).lua", generated.source)
        let report = try await Explorer(app: path, options: .init(depth: generated.depth)).run()
        #expect(report.states.count == generated.states, "\(generated.source)")
        #expect(report.findings.isEmpty, "\(report.findings.map(\.summary))")
        #expect(Set(report.states.map(\.fingerprint)).count == report.states.count)
        #expect(report.statesMet == generated.states)
    }

    @Test func declaredStateChangesAreExplored() async throws {
        let path = try scratch.write("app.lua", """
            portolan.initial_state { logged_in = false }
            portolan.app { id = "root", kind = "switch",
              explore = { state = { logged_in = { true, false } } },
              children = {
                { id = "welcome" },
                { id = "account", guard = function()
                    if not portolan.state.logged_in then return portolan.redirect { "root", "welcome" } end
                  end },
              } }
            """)
        let report = try await Explorer(app: path).run()
        #expect(report.findings.isEmpty, "\(report.findings.map(\.summary))")
        #expect(report.visitedNodes.contains("account"))
        let actions = report.actions(to: try #require(report.states.firstIndex { $0.path.last?.id == "account" }))
        #expect(actions.map(\.description) == ["state logged_in = true", "route root > account"])
    }

    @Test func aRunThatReachesALimitSaysWhichAndWhatItLeft() async throws {
        let path = try scratch.write("app.lua", """
            portolan.app { id = "root", children = { { id = "a", push = { "a" } } } }
            """)
        let byDepth = try await Explorer(app: path, options: .init(depth: 2)).run()
        #expect(byDepth.limitsReached.contains { $0.hasPrefix("depth 2: ") })
        let byStates = try await Explorer(app: path, options: .init(states: 3)).run()
        #expect(byStates.states.count == 3)
        #expect(byStates.limitsReached.contains { $0.hasPrefix("states 3: ") })
        #expect(ExploreFormat.text.render(byStates).contains("limit reached: states 3"))
        let byTime = try await Explorer(app: path, options: .init(seconds: 0)).run()
        #expect(byTime.limitsReached.contains { $0.hasPrefix("time 0 s: 1 state was not explored") }, "\(byTime.limitsReached)")
        #expect(byTime.states.count == 1)
    }

    /// A keyed screen on top is updated in place to each of its other example contexts, and its
    /// `update` handler runs: a handler that fails there is found.
    @Test func aKeyedTopScreenIsUpdatedToItsOtherContexts() async throws {
        let path = try scratch.write("app.lua", """
            portolan.app { id = "root", explore = { contexts = { a = { { id = 1, sort = "year" }, { id = 1, sort = "name" } } } },
              children = { { id = "a", key = "id",
                update = function(node, entry) if entry.context.sort == "name" then error("cannot sort by name") end end } } }
            """)
        let report = try await Explorer(app: path).run()
        let failed = report.findings.filter { $0.kind == .handlerError }
        #expect(failed.count == 1, "\(report.findings.map(\.summary))")
        #expect(failed.first?.evidence.contains("at update a {id=1,sort=year} -> a {id=1,sort=name}: ") == true)
        #expect(failed.first?.evidence.contains("cannot sort by name") == true)
    }

    @Test func exploringStartsFromASnapshot() async throws {
        let path = try scratch.write("app.lua", """
            portolan.app { id = "root", children = { { id = "a", children = { { id = "b" } } }, { id = "c" } } }
            """)
        let host = try await PortolanHost.quiet()
        try await host.loadApp(.file(path))
        _ = await host.route(.ids("root", "a", "b"))
        let bytes = try await host.snapshotBytes()
        let report = try await Explorer(app: path, options: .init(depth: 0), from: bytes).run()
        #expect(report.states.first?.pathText == "root > a > b")
        let repro = ExploreRepro.scenario(
            for: ExploreFinding(kind: .deadEnd, state: 0, path: "root > a > b", action: .back, evidence: "x"),
            in: report, from: String(decoding: bytes, as: UTF8.self))
        #expect(repro.contains("expect_restore([["))
    }

    @Test func aMalformedExploreOptionIsRefusedAtItsLine() async throws {
        let cases = [
            ("explore = 3", "explore must be a table"),
            ("explore = { states = {} }", "explore has no field states"),
            ("explore = { state = { on = {} } }", "explore.state.on must be a list of the values to try"),
            ("explore = { state = { on = { {} } } }", "explore.state.on[1] must be a string, a number or a boolean"),
            ("explore = { contexts = { a = { 3 } } }", "explore.contexts.a[1] must be a table"),
            ("explore = { back = { 1 } }", "explore.back[1] must be a node id"),
            ("explore = { urls = { true } }", "explore.urls[1] must be a URL"),
        ]
        for (option, message) in cases {
            let source = "portolan.app { id = \"root\", \(option) }\n"
            do {
                let host = try await PortolanHost.quiet()
                try await host.loadApp(.source(source, chunkName: "bad.lua"))
                Issue.record("\(option) was accepted")
            } catch {
                #expect("\(error)".contains(message), "\(option): \(error)")
                #expect("\(error)".contains("bad.lua:1"), "\(option): \(error)")
            }
        }
    }
}
