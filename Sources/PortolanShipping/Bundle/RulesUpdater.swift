#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Portolan
import PortolanLua

/// What an app makes to take rules updates (docs/bundles.md): given its host, the keys it trusts
/// and its options (the store, the canary's policy, the gate's budgets), it runs the whole gate on
/// a bundle (stages 1 to 6 in hosts of its own, `BundleGate`), the store's quarantine and replay
/// checks, the live swap (stage 7) and the canary (stage 8) in the live host, and announces every
/// outcome (`outcomes()`). The host holds none of it: only the committed swap and the canary
/// watching it, while it lasts (`RulesSwapWatch`), so that two updaters of one host (or an
/// updater and a reload) see one another's swaps.
public final class RulesUpdater: Sendable {
    public let host: PortolanHost
    /// The keys the app trusts: the bundle's manifest names the one that signed it. Trust two
    /// while rotating from one key to the next (docs/bundles.md, "Keys").
    public let publicKeys: [BundlePublicKey]
    public let options: BundleInstallOptions
    private let announcements = BundleOutcomeHub()
    private let lastSwap = Locked<PortolanHost.RulesSwapped?>(nil)

    public init(host: PortolanHost, publicKeys: [BundlePublicKey], options: BundleInstallOptions) {
        self.host = host
        self.publicKeys = publicKeys
        self.options = options
    }

    public convenience init(host: PortolanHost, publicKey: BundlePublicKey, options: BundleInstallOptions) {
        self.init(host: host, publicKeys: [publicKey], options: options)
    }

    /// Runs the whole gate on a bundle's bytes and, when every stage passes, swaps its rules in
    /// between two routes, with the live tree and `portolan.state` carried over; then a canary
    /// watches the next routes (the app's `options.canary`, which the manifest may tighten) and
    /// reverts the rules when too many fail. Stages 1 to 6 run in hosts of their own, so routes in
    /// flight never see them; the swap is one unit of work. A bundle rejected for what it is, or
    /// reverted, is quarantined in the store (by id and version) and never installed again; a
    /// version not above the store's floor is refused. Returns at the swap (`.accepted` with the
    /// canary `.watching`) unless `options.awaitsCanary`.
    public func install(bundle bytes: [UInt8]) async -> BundleInstallOutcome {
        await install(bytes, admission: .offered)
    }

    /// Puts the store's rules back in service, as an app does when it starts, and says which:
    /// a canary's watch that the last process did not live to end is resumed (`.accepted` with
    /// `.resumed`: the bundle through the gate again, watched afresh); after the third start
    /// without a verdict, the bundle is quarantined instead (`.rejected` at stage 8). Otherwise
    /// the last known good (`.accepted` with `.knownGood`), through the gate again (this build of
    /// the app may differ), without a canary (it passed one) or the replay check. Nil when the
    /// store holds neither: the rules embedded in the app stay, and stay too when it is rejected.
    public func installKnownGood() async -> BundleInstallOutcome? {
        await start()
    }

    /// Every outcome from now on, as it is decided: each install's (`accepted` with the canary
    /// watching, or `rejected`), then each canary's verdict (`accepted` with `passed`, or
    /// `reverted` with the failing routes), for an app's own analytics. Any thread may take one;
    /// it ends when its reader stops iterating.
    public func outcomes() -> AsyncStream<BundleInstallOutcome> {
        announcements.stream()
    }

    /// How long this updater's last swap held the host's thread, and with it the route queue:
    /// its snapshot, load and restore. Nil before one.
    public var lastSwapPause: Duration? { lastSwap.value?.pause }

    /// The CPU time the host's thread spent in that swap: the pause without the time other threads
    /// and processes had the cores (what the swap itself costs on a busy machine).
    public var lastSwapCPUTime: Duration? { lastSwap.value?.cpuTime }

    /// Whether a canary (this updater's or another's) is watching the host's routes now.
    public var isCanaryWatching: Bool {
        get async { await host.isSwapWatched }
    }

    /// A bundle offered afresh (checked for replay, watched by a canary); one whose canary's
    /// process died, watched again as the app starts for the `starts`th time; or the store's known
    /// good installed again as the app starts (its canary passed before).
    enum Admission: Equatable {
        case offered
        case resumed(starts: Int)
        case knownGood

        /// How many starts resumed its watch, for the store; nil when no canary watches it.
        var watchStarts: Int? {
            switch self {
            case .offered: 0
            case .resumed(let starts): starts
            case .knownGood: nil
            }
        }
    }

    /// How many starts of the app resume a canary's watch its process did not live to end. The
    /// start after them goes back to the known good, and quarantines the bundle: an app that
    /// stops three times while the same rules are watched is likeliest stopped by them.
    static let maximumResumes = 2

    /// A bundle as it goes through the gate.
    private struct Candidate {
        let bytes: [UInt8]
        let bundle: RulesBundle
        let admission: Admission
        var manifest: BundleManifest { bundle.manifest }
        var identity: BundleStore.Identity { .init(id: manifest.id, version: manifest.version) }
    }

    /// Stages 1 to 6 on `bytes`, judged as `admission` says, then the swap and its canary.
    private func install(_ bytes: [UInt8], admission: Admission) async -> BundleInstallOutcome {
        let bundle: RulesBundle
        switch RulesBundle.verified(bytes, trusting: publicKeys) {
        case .success(let verified): bundle = verified
        case .failure(let error): return announce(.rejected(stage: .integrity, reason: .invalid(error)))
        }
        let candidate = Candidate(bytes: bytes, bundle: bundle, admission: admission)
        if let refusal = admissionRefusal(of: candidate) { return announce(.rejected(stage: .integrity, reason: refusal)) }
        let gate = BundleGate(publicKeys: publicKeys, options: options.gate)
        if let missing = await gate.requirementMissing(bundle.manifest, on: host) {
            return announce(.rejected(stage: .requirements, reason: .invalid(missing)))
        }
        let live: BundleGate.LiveState?
        switch await Self.liveState(of: host) {
        case .success(let state): live = state
        case .failure(let error): return reject(candidate, at: .migration, .migrationRefused("cannot take a snapshot of the live state: \(error.reason)"))
        }
        // The gate runs the very files the live host will, where it will: rules that could tell
        // the gate from the live host by their own chunk names could pass in one and fail in the other.
        let files: BundleUnpacking
        do {
            try options.store.prepare()
            files = try BundleUnpacking(bundle, into: options.store.rulesDirectory(for: candidate.identity))
        } catch {
            // This device's disk, not the bundle: retried, never quarantined.
            return reject(candidate, at: .load, .invalid(.invalidManifest("cannot unpack the bundle in the store: \(error)")))
        }
        let rules = BundleGate.RulesUnderTest(
            manifest: bundle.manifest, files: files, functions: await host.registeredFunctions, contract: options.contract, live: live)
        if case .rejected(let stage, let reason)? = await gate.run(rules) {
            files.remove()
            return reject(candidate, at: stage, reason)
        }
        return await swap(candidate, files: files)
    }

    /// What serves as the app starts: a canary's watch the last process did not live to end is
    /// resumed, through the gate again, up to `maximumResumes` starts; the start after them
    /// quarantines it. Else, or when the resumed bundle is refused, the known good; nil when the
    /// store holds neither (the rules embedded in the app stay). Every outcome is announced.
    private func start() async -> BundleInstallOutcome? {
        let store = options.store
        if let watch = store.watch {
            if watch.starts < Self.maximumResumes {
                let resumed = await install(watch.bytes, admission: .resumed(starts: watch.starts + 1))
                if case .accepted = resumed { return resumed }
            } else {
                try? store.quarantine(watch.identity)
                announce(.rejected(stage: .canary, reason: .canaryNeverEnded(starts: watch.starts + 1)))
            }
            try? store.endWatch(of: watch.identity)
        }
        guard let bytes = store.knownGood else { return nil }
        return await install(bytes, admission: .knownGood)
    }

    /// Stage 1's checks after the signature: the quarantine, then, for a bundle offered, its
    /// expiry, the replay (not above the floor, nor above the version a canary watches) and the
    /// jump. A bundle installed already (resumed, known good) is not judged by its expiry again.
    private func admissionRefusal(of candidate: Candidate) -> BundleRejectionReason? {
        let store = options.store, identity = candidate.identity
        if store.isQuarantined(identity) { return .quarantined(id: identity.id, version: identity.version) }
        if case .resumed = candidate.admission, let floor = store.floor, identity.version <= floor {
            // The watched bundle's file is the store's to keep: one found below the floor (put
            // there by hand, or by another process) is no watch to resume.
            return .replayedVersion(id: identity.id, offered: identity.version, installed: floor)
        }
        guard candidate.admission == .offered else { return nil }
        if let expires = candidate.manifest.expires, Int(Date().timeIntervalSince1970) > expires {
            return .expired(at: expires)
        }
        if options.requiresExpiry, candidate.manifest.expires == nil { return .noExpiry }
        let floor = store.floor
        if let newest = [floor, store.watchedIdentity?.version].compactMap({ $0 }).max(), identity.version <= newest {
            return .replayedVersion(id: identity.id, offered: identity.version, installed: newest)
        }
        let step = options.maximumVersionStep
        if let floor, identity.version.subtractingReportingOverflow(floor).partialValue > step {
            return .versionJump(offered: identity.version, floor: floor, maximumStep: step)
        }
        return nil
    }

    /// The live host's snapshot and active path, taken in one unit (nil when no app is declared).
    private static func liveState(of host: PortolanHost) async -> Result<BundleGate.LiveState?, SnapshotError> {
        await host.perform { host in
            guard let router = host.router else { return .success(nil) }
            do throws(SnapshotError) {
                return .success(BundleGate.LiveState(document: try host.snapshot(), activePath: router.activePath))
            } catch {
                return .failure(error)
            }
        }
    }

    /// Stage 7, then the canary of stage 8.
    private func swap(_ candidate: Candidate, files: BundleUnpacking) async -> BundleInstallOutcome {
        let manifest = candidate.manifest
        let judged = Locked<BundleRejectionReason?>(nil)
        let verdict = CanaryVerdict()
        let policy = options.canary.tightened(by: manifest.canary)
        let store = options.store, identity = candidate.identity
        var report: (@Sendable (CanaryReport) -> Void)?
        if let starts = candidate.admission.watchStarts {
            // Recorded before the swap: a process that dies under the new rules resumes the watch.
            try? store.recordWatch(of: identity, bytes: candidate.bytes, starts: starts)
            report = canaryReport(for: candidate, files: files, verdict: verdict)
        }
        // A canary of no routes has nothing to watch: it passes at the swap.
        let canary = report.flatMap { report in
            policy.routes > 0 ? RulesCanary(policy: policy, began: began(candidate, policy: policy), report: report) : nil
        }
        let swapped = await host.swapRules(to: .file(files.path(manifest.entry)), watch: canary) { outcome, before, after in
            guard let reason = BundleMigrationCheck.rejection(before: before, outcome: outcome, after: after) else { return nil }
            judged.withLock { $0 = reason }
            return reason.text
        }
        switch swapped {
        case .failure(let error):
            try? store.endWatch(of: identity)
            files.remove()
            return reject(candidate, at: .swap, judged.value ?? .swapFailed(error.message))
        case .success(let done):
            lastSwap.withLock { $0 = done }
            if canary == nil, let report { report(.passed(routes: 0)) }
        }
        switch candidate.admission {
        case .knownGood:
            return announce(.accepted(manifest, canary: .knownGood))
        case .resumed(let starts) where !options.awaitsCanary && policy.routes > 0:
            return .accepted(manifest, canary: .resumed(routes: policy.routes, starts: starts))
        case .offered where !options.awaitsCanary && policy.routes > 0:
            return .accepted(manifest, canary: .watching(routes: policy.routes))
        case .offered, .resumed:
            return await verdict.value()
        }
    }

    /// What the canary announces in the swap's unit once it watches, before any route can end.
    private func began(_ candidate: Candidate, policy: CanaryPolicy) -> @Sendable () -> Void {
        let watching: CanaryState
        if case .resumed(let starts) = candidate.admission {
            watching = .resumed(routes: policy.routes, starts: starts)
        } else {
            watching = .watching(routes: policy.routes)
        }
        let manifest = candidate.manifest
        return { [announcements] in announcements.emit(.accepted(manifest, canary: watching)) }
    }

    /// What the canary does with its verdict, on the host's thread: a pass makes the bundle the
    /// store's known good; a failure (after the revert) quarantines it. Either is announced.
    private func canaryReport(
        for candidate: Candidate, files: BundleUnpacking, verdict: CanaryVerdict
    ) -> @Sendable (CanaryReport) -> Void {
        let manifest = candidate.manifest, store = options.store
        let identity = candidate.identity, bytes = candidate.bytes
        return { [self] report in
            let outcome: BundleInstallOutcome
            switch report {
            case .passed(let routes):
                try? store.canaryPassed(identity, bytes: bytes)
                outcome = .accepted(manifest, canary: .passed(routes: routes))
            case .superseded(let routes):
                // Neither known good nor quarantined: its files stay, the next rules' revert target.
                try? store.endWatch(of: identity)
                outcome = .accepted(manifest, canary: .undecided(routes: routes))
            case .reverted(let failures, let revertError):
                try? store.quarantine(identity)
                try? store.endWatch(of: identity)
                if let revertError {
                    // The failing rules may still serve from these files.
                    outcome = .revertFailed(manifest, failingRoutes: failures, problem: revertError)
                } else {
                    files.remove()
                    outcome = .reverted(manifest, failingRoutes: failures)
                }
            }
            verdict.resolve(announce(outcome))
        }
    }

    /// A rejection, announced; the bundle is quarantined when it was refused for what it is.
    private func reject(_ candidate: Candidate, at stage: BundleGateStage, _ reason: BundleRejectionReason) -> BundleInstallOutcome {
        if candidate.admission != .knownGood, Self.quarantines(stage, reason) {
            try? options.store.quarantine(candidate.identity)
        }
        return announce(.rejected(stage: stage, reason: reason))
    }

    /// Whether a rejection quarantines the bundle: only a verdict on its own bytes
    /// (`BundleRejectionReason.isAboutTheBundle`), which every device would reach. A time limit,
    /// the live state or what this build lacks is a refusal a later install retries, so that a
    /// good release is not lost on a device for what is not its fault, and the fleet does not split.
    static func quarantines(_ stage: BundleGateStage, _ reason: BundleRejectionReason) -> Bool {
        stage >= .load && reason.isAboutTheBundle
    }

    @discardableResult
    private func announce(_ outcome: BundleInstallOutcome) -> BundleInstallOutcome {
        announcements.emit(outcome)
        return outcome
    }
}
