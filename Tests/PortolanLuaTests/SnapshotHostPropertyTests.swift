import Portolan
import PortolanLua
import PropertyBased
import TestSupport
import Testing

/// Issue 21's rules-change numbers through a real host (`host.restore`, handlers that run, guards
/// asked again): a random app saved at version 1 is restored under a random version 2 that
/// renames, removes, moves and rewrites contexts, declared or not, and a version 2 with a new
/// guard (or a new failing screen) on the restored path. Never a throw or a crash; every declared
/// rename restored where its stack survives; every loss reported; a new guard wins, and says so;
/// a refusal leaves the host's snapshot byte for byte as before. The same change by reload and by
/// a bundle's swap carries the same tree, kept stacks included, and reports the same changes
/// (issue 32: one carrier), and a new guard denies or redirects alike by all three.
/// `SnapshotMigrationPropertyTests` runs more cases of the migration alone, at engine level.
@Suite struct SnapshotHostPropertyTests {
    static let cases = 300

    /// What the cases reached, so that the property is not vacuous.
    struct Reached {
        var renamesRestored = 0, moves = 0, undeclaredLosses = 0, contextsChanged = 0, handlersRun = 0
        var denied = 0, redirected = 0, failed = 0, departures = 0
    }

    @Test func generatedRulesChangesThroughTheHost() async throws {
        var reached = Reached()
        await propertyCheck(count: Self.cases, input: Gen.uint64()) { seed in
            do {
                try await Self.check(seed: seed, &reached)
            } catch {
                var random = SeededRandom(seed: seed)
                Issue.record("seed \(seed): \(error)\n\(GeneratedRulesChange(random: &random).source(v2: false))")
            }
        }
        // About a fifth of what a run of 300 cases reaches on average (200 cases reached about
        // 180 renames restored, 50 moves, 75 undeclared losses, 170 contexts, 400 handlers, 60
        // denials, 60 redirects, 20 failures; and about 90 screens that left on a reload).
        #expect(reached.renamesRestored > 60, "\(reached)")
        #expect(reached.moves > 15, "\(reached)")
        #expect(reached.undeclaredLosses > 25, "\(reached)")
        #expect(reached.contextsChanged > 50, "\(reached)")
        #expect(reached.handlersRun > Self.cases, "\(reached)")
        #expect(reached.departures > 20, "\(reached)")
        #expect(reached.denied > 20 && reached.redirected > 20 && reached.failed > 5, "\(reached)")
    }

    static func check(seed: UInt64, _ reached: inout Reached) async throws {
        var random = SeededRandom(seed: seed)
        let change = GeneratedRulesChange(random: &random)
        let origin = try await PortolanHost.quiet(loading: change.source(v2: false))
        // `note` is the session's own key, which no rules name: it stays whatever the rules.
        let routes = change.routes(&random) + "\nportolan.state.visits = 3; portolan.state.note = 'mine'"
        _ = try await origin.run(routes, chunkName: "routes.lua")
        let saved = try await origin.snapshotBytes()
        guard case .success(let document) = SnapshotReader.document(from: saved) else {
            Issue.record("seed \(seed): the saved snapshot does not read back")
            return
        }
        // Version 2 as declared: the restore goes through, with every change and loss reported.
        let host = try await PortolanHost.quiet(loading: change.source(v2: true))
        let outcome = await host.restore(saved)
        guard outcome.name != "refused" else {
            Issue.record("seed \(seed): refused without a guard: \(outcome)")
            return
        }
        reached.handlersRun += Int(try await host.run("return entered + left + switched", chunkName: "s.lua").first ?? "0") ?? 0
        guard case .success(let restored) = SnapshotReader.document(from: try await host.snapshotBytes()) else {
            Issue.record("seed \(seed): the restored snapshot does not read back")
            return
        }
        Self.expectEverythingRestoredOrReported(seed: seed, change, saved: document.tree, restored: restored.tree, outcome, &reached)
        try await Self.expectTheSameByReloadAndSwap(
            seed: seed, change, routes: routes, on: origin, saved: document.tree, restored: restored.tree, restoredBy: host, outcome,
            &reached)
        // The same version 2 with a new guard, or a new failing screen, on the restored path.
        let path = await host.router?.activePath.map(\.id) ?? []
        guard path.count > 1, let guarded = random.pick(Array(path.dropFirst())),
            let elsewhere = random.pick(change.v2.children.map(\.id).filter { $0 != path[1] })
        else { return }
        let verdict = random.pick(GeneratedRulesChange.Verdict.allCases) ?? .deny
        let strict = try await PortolanHost.quiet(loading: change.source(v2: true, verdict: (verdict, on: guarded, redirectTo: elsewhere)))
        let before = try await strict.snapshotBytes()
        let judged = await strict.restore(saved)
        try await Self.expectVerdict(seed: seed, verdict, judged, expected: outcome, on: strict, before: before, redirectTo: elsewhere, &reached)
        // A new screen that fails is entered by a restore only: a reload carries the screens the
        // session entered. A new guard is asked by all three.
        if verdict != .fail {
            try await Self.expectTheSameVerdictByReloadAndSwap(
                seed: seed, change.source(v2: true, verdict: (verdict, on: guarded, redirectTo: elsewhere)), v1: change.source(v2: false),
                routes: routes, verdict, restored: judged, redirectTo: elsewhere)
        }
    }

    /// The same new guard by reload and by a bundle's swap, each from a session that took the same
    /// routes under version 1: the reload's guards, asked again, deny or redirect as the restore's
    /// did, and the swap's outcome is the restore's.
    static func expectTheSameVerdictByReloadAndSwap(
        seed: UInt64, _ v2: String, v1: String, routes: String, _ verdict: GeneratedRulesChange.Verdict, restored judged: RestoreOutcome,
        redirectTo elsewhere: String
    ) async throws {
        let reloading = try await PortolanHost.quiet(loading: v1)
        _ = try await reloading.run(routes, chunkName: "routes.lua")
        let reloaded = try await reloading.reload(.source(v2, chunkName: "app.lua"))
        switch (verdict, reloaded.refresh) {
        case (.deny, .failure(let failure)):
            #expect(failure.kind == .denied, "seed \(seed): \(failure)")
        case (.redirect, .success(let instructions)) where !instructions.isEmpty:
            #expect(await reloading.router?.activePath.prefix(2).map(\.id) == ["root", elsewhere], "seed \(seed)")
        default:
            Issue.record("seed \(seed): the reload's guards said \(reloaded.refresh), the restore's \(judged)")
        }
        let swapping = try await PortolanHost.quiet(loading: v1)
        _ = try await swapping.run(routes, chunkName: "routes.lua")
        let swapped = await swapping.swapRules(to: .source(v2, chunkName: "app.lua"), watch: nil) { _, _, _ in nil }
        guard case .success(let swap) = swapped, let outcome = swap.restore else {
            Issue.record("seed \(seed): the swap failed: \(swapped)")
            return
        }
        #expect(outcome.name == judged.name && outcome.changes == judged.changes, "seed \(seed): a swap says \(outcome), a restore \(judged)")
        if case .refused(let reason) = judged, case .refused(let said) = outcome {
            #expect(said == reason, "seed \(seed)")
        }
    }

    /// The same change by reload and by a bundle's swap (issue 32): one carrier, so the same tree,
    /// kept stacks included, the same changes reported and the same state; and no screen leaves
    /// a reload without its `leave`.
    static func expectTheSameByReloadAndSwap(
        seed: UInt64, _ change: GeneratedRulesChange, routes: String, on origin: PortolanHost, saved: SavedNode,
        restored: SavedNode, restoredBy host: PortolanHost, _ outcome: RestoreOutcome, _ reached: inout Reached
    ) async throws {
        // The same change by reload (issue 32): one carrier, so the same tree, kept stacks included,
        // and the same changes reported.
        let reloaded = try await origin.reload(.source(change.source(v2: true), chunkName: "app.lua"))
        guard case .success(let carried) = SnapshotReader.document(from: try await origin.snapshotBytes()) else {
            Issue.record("seed \(seed): the reloaded snapshot does not read back")
            return
        }
        #expect(carried.tree == restored, "seed \(seed): a reload carries another tree than a restore")
        // No screen leaves without its `leave` (every screen has one; a switch node none): the
        // script, run again, zeroes the counters before it declares, and the screens that go
        // leave as it declares.
        let switchNodes = Set(GeneratedRulesChange.places(in: change.v1).filter(\.node.isSwitch).map(\.node.id))
        let leaves = reloaded.left.filter { if case .leave(let entry) = $0 { !switchNodes.contains(entry.id) } else { false } }.count
        #expect(try await origin.run("return left", chunkName: "s.lua") == ["\(leaves)"], "seed \(seed): \(reloaded.left)")
        reached.departures += leaves
        // And every screen that went is among them, kept stacks' too (issue 32: a kept stack's
        // went without a word): of each name, at least as many leaves as the tree lost of it.
        let before = Self.screenCounts(in: saved, switches: switchNodes, renamed: change.renamed)
        let after = Self.screenCounts(in: carried.tree, switches: Set(switchNodes.map { change.renamed[$0] ?? $0 }), renamed: [:])
        var leftByName: [String: Int] = [:]
        for case .leave(let entry) in reloaded.left { leftByName[change.renamed[entry.id] ?? entry.id, default: 0] += 1 }
        for (name, count) in before where count > after[name, default: 0] {
            #expect(leftByName[name, default: 0] >= count - after[name, default: 0],
                    "seed \(seed): '\(name)' went without its leave: \(reloaded.left)")
        }
        #expect(reloaded.changes == outcome.changes, "seed \(seed): a reload reports \(reloaded.changes), a restore \(outcome.changes)")
        // And by a bundle's swap, on a host that took the same routes under version 1.
        let swapping = try await PortolanHost.quiet(loading: change.source(v2: false))
        _ = try await swapping.run(routes, chunkName: "routes.lua")
        let swapped = await swapping.swapRules(to: .source(change.source(v2: true), chunkName: "app.lua"), watch: nil) { _, _, _ in nil }
        guard case .success(let swap) = swapped, case .success(let afterSwap) = SnapshotReader.document(from: try await swapping.snapshotBytes())
        else {
            Issue.record("seed \(seed): the swap failed: \(swapped)")
            return
        }
        #expect(afterSwap.tree == restored, "seed \(seed): a swap carries another tree than a restore")
        // The state too: the session's value of the key both versions name, the new key's first
        // value, the key version 2 no longer names dropped, the session's own key kept.
        for carrier in [host, origin, swapping] {
            let state = "return portolan.state.visits, portolan.state.credits, portolan.state.coupon, portolan.state.note"
            #expect(try await carrier.run(state, chunkName: "s.lua") == ["3", "5", "nil", #""mine""#], "seed \(seed)")
        }
        #expect(swap.restore?.changes == outcome.changes, "seed \(seed): a swap reports \(String(describing: swap.restore)), a restore \(outcome)")
    }

    /// Every saved node, by its name after the declared renames, is in the restored tree or a
    /// change names it or a node above it; every declared rename and move on the saved tree is
    /// reported, and a move puts the node where it was declared.
    static func expectEverythingRestoredOrReported(
        seed: UInt64, _ change: GeneratedRulesChange, saved: SavedNode, restored: SavedNode, _ outcome: RestoreOutcome,
        _ reached: inout Reached
    ) {
        let restoredIDs = Set(ids(in: restored))
        let savedIDs = Set(ids(in: saved))
        for (id, ancestors) in lineages(in: saved) {
            let now = change.renamed[id] ?? id
            if restoredIDs.contains(now) { continue }
            let named = Set([id, now] + ancestors + ancestors.map { change.renamed[$0] ?? $0 })
            let reported = outcome.changes.contains { change in
                switch change {
                case .removed(let gone, _), .dropped(let gone, _), .moved(let gone, _, _): named.contains(gone)
                default: false
                }
            }
            #expect(reported, "seed \(seed): '\(now)' (saved as '\(id)') is neither restored nor reported: \(outcome)")
        }
        for (old, new) in change.renamed where savedIDs.contains(old) {
            #expect(outcome.changes.contains(.renamed(old, to: new, version: 2)), "seed \(seed): rename of '\(old)' not reported: \(outcome)")
            if restoredIDs.contains(new) { reached.renamesRestored += 1 }
        }
        // A move stands where it was declared: on the active path when it was saved there, in a kept
        // stack otherwise (issue 32: a kept stack's move was lost).
        let restoredLineages = lineages(in: restored)
        for case .moved(let id, let lineage, _) in outcome.changes {
            #expect(change.moved[id] == lineage, "seed \(seed): an undeclared move of '\(id)'")
            #expect(restoredLineages.contains { $0.0 == id && $0.1 == ["root"] + lineage },
                    "seed \(seed): '\(id)' not moved: \(restored.activeChain.map(\.entry.id))")
            reached.moves += 1
        }
        reached.undeclaredLosses += outcome.changes.filter { if case .dropped = $0 { true } else { false } }.count
        reached.contextsChanged += outcome.changes.filter { if case .contextChanged = $0 { true } else { false } }.count
    }

    /// A new guard that denies refuses the restore; one that redirects wins and says so; a new
    /// screen that fails refuses it when it is entered; every refusal leaves the host as it was.
    static func expectVerdict(
        seed: UInt64, _ verdict: GeneratedRulesChange.Verdict, _ outcome: RestoreOutcome, expected: RestoreOutcome,
        on host: PortolanHost, before: [UInt8], redirectTo elsewhere: String, _ reached: inout Reached
    ) async throws {
        if outcome.name == "refused" {
            #expect(try await host.snapshotBytes() == before, "seed \(seed): a refused restore changed the host: \(outcome)")
        }
        switch (verdict, outcome) {
        case (.deny, .refused(let reason)):
            #expect(reason.contains("a guard denies the restored path"), "seed \(seed): \(reason)")
            reached.denied += 1
        case (.redirect, .restored(.redirected, _)), (.redirect, .migrated(_, .redirected, _)):
            #expect(outcome.name == expected.name && outcome.changes == expected.changes, "seed \(seed): \(outcome) against \(expected)")
            #expect(await host.router?.activePath.prefix(2).map(\.id) == ["root", elsewhere], "seed \(seed): \(outcome)")
            reached.redirected += 1
        case (.fail, .refused(let reason)):
            #expect(reason.contains("the new screen fails"), "seed \(seed): \(reason)")
            reached.failed += 1
        case (.fail, _):
            // The failing screen was not entered: a tab switched to, or already on the path.
            #expect(outcome.name == expected.name, "seed \(seed): \(outcome) against \(expected)")
        default:
            Issue.record("seed \(seed): a new \(verdict) guard did not win: \(outcome)")
        }
    }

    static func ids(in node: SavedNode) -> [String] {
        [node.entry.id] + node.children.flatMap { ids(in: $0) }
    }

    /// How many times the tree holds each screen a route can leave (a switch node's children are
    /// its own: they go only with it), by its name after `renamed`.
    static func screenCounts(in node: SavedNode, switches: Set<String>, renamed: [String: String], managed: Bool = false) -> [String: Int] {
        var counts = managed ? [:] : [renamed[node.entry.id] ?? node.entry.id: 1]
        for child in node.children {
            let below = screenCounts(in: child, switches: switches, renamed: renamed, managed: switches.contains(node.entry.id))
            counts.merge(below, uniquingKeysWith: +)
        }
        return counts
    }

    /// Every saved node's id with the ids above it, root first.
    static func lineages(in node: SavedNode, above: [String] = []) -> [(String, [String])] {
        [(node.entry.id, above)] + node.children.flatMap { lineages(in: $0, above: above + [node.entry.id]) }
    }
}
