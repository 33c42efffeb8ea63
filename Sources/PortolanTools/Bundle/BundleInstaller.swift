#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PortolanLua

/// The whole gate of a host (docs/bundles.md): stages 1 to 6 in hosts of their own (`BundleGate`),
/// the quarantine and replay checks of the store, the live swap (stage 7) and the canary (stage 8)
/// in the live host. One per host, kept beside it (`PortolanHost.attachments`), with the streams
/// of `host.bundleOutcomes()`.
final class BundleInstaller: Sendable {
    let outcomes = BundleOutcomeHub()

    /// The host's installer, made on first use.
    static func of(_ host: PortolanHost) -> BundleInstaller {
        host.attachments.withLock { attached in
            if let installer = attached["bundles"] as? BundleInstaller { return installer }
            let installer = BundleInstaller()
            attached["bundles"] = installer
            return installer
        }
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
        let options: BundleInstallOptions
        let admission: Admission
        var manifest: BundleManifest { bundle.manifest }
        var identity: BundleStore.Identity { .init(id: manifest.id, version: manifest.version) }
    }

    func install(
        _ bytes: [UInt8], publicKeys: [BundlePublicKey], options: BundleInstallOptions, on host: PortolanHost, admission: Admission
    ) async -> BundleInstallOutcome {
        let bundle: RulesBundle
        switch RulesBundle.verified(bytes, trusting: publicKeys) {
        case .success(let verified): bundle = verified
        case .failure(let error): return announce(.rejected(stage: .integrity, reason: .invalid(error)))
        }
        let candidate = Candidate(bytes: bytes, bundle: bundle, options: options, admission: admission)
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
        return await swap(candidate, files: files, on: host)
    }

    /// What serves as the app starts: a canary's watch the last process did not live to end is
    /// resumed, through the gate again, up to `maximumResumes` starts; the start after them
    /// quarantines it. Else, or when the resumed bundle is refused, the known good; nil when the
    /// store holds neither (the rules embedded in the app stay). Every outcome is announced.
    func start(publicKeys: [BundlePublicKey], options: BundleInstallOptions, on host: PortolanHost) async -> BundleInstallOutcome? {
        let store = options.store
        if let watch = store.watch {
            if watch.starts < Self.maximumResumes {
                let resumed = await install(watch.bytes, publicKeys: publicKeys, options: options, on: host, admission: .resumed(starts: watch.starts + 1))
                if case .accepted = resumed { return resumed }
            } else {
                try? store.quarantine(watch.identity)
                announce(.rejected(stage: .canary, reason: .canaryNeverEnded(starts: watch.starts + 1)))
            }
            try? store.endWatch(of: watch.identity)
        }
        guard let bytes = store.knownGood else { return nil }
        return await install(bytes, publicKeys: publicKeys, options: options, on: host, admission: .knownGood)
    }

    /// Stage 1's checks after the signature: the quarantine, then, for a bundle offered, its
    /// expiry, the replay (not above the floor, nor above the version a canary watches) and the
    /// jump. A bundle installed already (resumed, known good) is not judged by its expiry again.
    private func admissionRefusal(of candidate: Candidate) -> BundleRejectionReason? {
        let store = candidate.options.store, identity = candidate.identity
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
        if candidate.options.requiresExpiry, candidate.manifest.expires == nil { return .noExpiry }
        let floor = store.floor
        if let newest = [floor, store.watchedIdentity?.version].compactMap({ $0 }).max(), identity.version <= newest {
            return .replayedVersion(id: identity.id, offered: identity.version, installed: newest)
        }
        let step = candidate.options.maximumVersionStep
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
    private func swap(_ candidate: Candidate, files: BundleUnpacking, on host: PortolanHost) async -> BundleInstallOutcome {
        let manifest = candidate.manifest
        let judged = Locked<BundleRejectionReason?>(nil)
        let verdict = CanaryVerdict()
        let policy = candidate.options.canary.tightened(by: manifest.canary)
        let store = candidate.options.store, identity = candidate.identity
        var watch: PortolanHost.CanaryWatch?
        if let starts = candidate.admission.watchStarts {
            // Recorded before the swap: a process that dies under the new rules resumes the watch.
            try? store.recordWatch(of: identity, bytes: candidate.bytes, starts: starts)
            watch = canaryWatch(for: candidate, policy: policy, files: files, verdict: verdict)
        }
        let swapped = await host.swapRules(to: .file(files.path(manifest.entry)), canary: watch) { outcome, before, after in
            guard let reason = BundleMigrationCheck.rejection(before: before, outcome: outcome, after: after) else { return nil }
            judged.withLock { $0 = reason }
            return reason.text
        }
        if case .failure(let error) = swapped {
            try? store.endWatch(of: identity)
            files.remove()
            return reject(candidate, at: .swap, judged.value ?? .swapFailed(error.message))
        }
        switch candidate.admission {
        case .knownGood:
            return announce(.accepted(manifest, canary: .knownGood))
        case .resumed(let starts) where !candidate.options.awaitsCanary && policy.routes > 0:
            return .accepted(manifest, canary: .resumed(routes: policy.routes, starts: starts))
        case .offered where !candidate.options.awaitsCanary && policy.routes > 0:
            return .accepted(manifest, canary: .watching(routes: policy.routes))
        case .offered, .resumed:
            return await verdict.value()
        }
    }

    /// What the canary does with its verdict, on the host's thread: a pass makes the bundle the
    /// store's known good; a failure (after the revert) quarantines it. Either is announced.
    private func canaryWatch(
        for candidate: Candidate, policy: CanaryPolicy, files: BundleUnpacking, verdict: CanaryVerdict
    ) -> PortolanHost.CanaryWatch {
        let manifest = candidate.manifest, store = candidate.options.store
        let identity = candidate.identity, bytes = candidate.bytes
        let watching: CanaryState
        if case .resumed(let starts) = candidate.admission {
            watching = .resumed(routes: policy.routes, starts: starts)
        } else {
            watching = .watching(routes: policy.routes)
        }
        return PortolanHost.CanaryWatch(
            policy: policy,
            started: { [self] in
                if policy.routes > 0 { outcomes.emit(.accepted(manifest, canary: watching)) }
            },
            report: { [self] report in
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
            })
    }

    /// A rejection, announced; the bundle is quarantined when it was refused for what it is.
    private func reject(_ candidate: Candidate, at stage: BundleGateStage, _ reason: BundleRejectionReason) -> BundleInstallOutcome {
        if candidate.admission != .knownGood, Self.quarantines(stage, reason) {
            try? candidate.options.store.quarantine(candidate.identity)
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
        outcomes.emit(outcome)
        return outcome
    }
}

/// The canary's verdict for an install that waits for it: resolved once, from the host's thread.
final class CanaryVerdict: Sendable {
    private let state = Locked<(outcome: BundleInstallOutcome?, waiter: CheckedContinuation<BundleInstallOutcome, Never>?)>(
        (outcome: nil, waiter: nil))

    func resolve(_ outcome: BundleInstallOutcome) {
        let waiter = state.withLock { state -> CheckedContinuation<BundleInstallOutcome, Never>? in
            guard state.outcome == nil else { return nil }
            state.outcome = outcome
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: outcome)
    }

    func value() async -> BundleInstallOutcome {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> BundleInstallOutcome? in
                if let outcome = state.outcome { return outcome }
                state.waiter = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}
