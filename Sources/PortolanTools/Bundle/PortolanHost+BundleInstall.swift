import PortolanLua

/// Installing rules bundles (docs/bundles.md): the whole gate, the live swap, the canary, the
/// store's known good, its quarantine, and the outcomes as events.
extension PortolanHost {
    /// Runs the whole gate on a bundle's bytes and, when every stage passes, swaps its rules in
    /// between two routes, with the live tree and `portolan.state` carried over; then a canary
    /// watches the next routes (`manifest.canary`) and reverts the rules when too many fail. Stages
    /// 1 to 6 run in hosts of their own, so routes in flight never see them; the swap is one unit
    /// of work. A bundle rejected or reverted is quarantined in `options.store` (by id and
    /// version) and never installed again; a version not newer than the one installed is refused.
    /// Returns at the swap (`.accepted` with the canary `.watching`) unless `options.awaitsCanary`.
    /// `publicKeys` are the keys the app trusts: the bundle's manifest names the one that signed
    /// it. Trust two while rotating from one key to the next (docs/bundles.md, "Keys").
    public nonisolated func install(
        bundle bytes: [UInt8], publicKeys: [BundlePublicKey], options: BundleInstallOptions
    ) async -> BundleInstallOutcome {
        await BundleInstaller.of(self).install(bytes, publicKeys: publicKeys, options: options, on: self, admission: .offered)
    }

    public nonisolated func install(bundle bytes: [UInt8], publicKey: BundlePublicKey, options: BundleInstallOptions) async -> BundleInstallOutcome {
        await install(bundle: bytes, publicKeys: [publicKey], options: options)
    }

    /// Puts the store's rules back in service, as an app does when it starts, and says which:
    /// a canary's watch that the last process did not live to end is resumed (`.accepted` with
    /// `.resumed`: the bundle through the gate again, watched afresh); after the third start
    /// without a verdict, the bundle is quarantined instead (`.rejected` at stage 8). Otherwise
    /// the last known good (`.accepted` with `.knownGood`), through the gate again (this build of
    /// the app may differ), without a canary (it passed one) or the replay check. Nil when the
    /// store holds neither: the rules embedded in the app stay, and stay too when it is rejected.
    public nonisolated func installKnownGood(publicKeys: [BundlePublicKey], options: BundleInstallOptions) async -> BundleInstallOutcome? {
        await BundleInstaller.of(self).start(publicKeys: publicKeys, options: options, on: self)
    }

    public nonisolated func installKnownGood(publicKey: BundlePublicKey, options: BundleInstallOptions) async -> BundleInstallOutcome? {
        await installKnownGood(publicKeys: [publicKey], options: options)
    }

    /// Every outcome from now on, as it is decided: each install's (`accepted` with the canary
    /// watching, or `rejected`), then each canary's verdict (`accepted` with `passed`, or
    /// `reverted` with the failing routes), for an app's own analytics. Any thread may take one;
    /// it ends when its reader stops iterating.
    public nonisolated func bundleOutcomes() -> AsyncStream<BundleInstallOutcome> {
        BundleInstaller.of(self).outcomes.stream()
    }
}
