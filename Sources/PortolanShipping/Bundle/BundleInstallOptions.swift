import PortolanLua

/// What an app tells `host.install(bundle:publicKey:options:)` besides the bundle and the key.
public struct BundleInstallOptions: Sendable {
    /// Where the host keeps the rules in service, the last known good bundle, the versions
    /// installed and the quarantine (`BundleStore`). Two hosts given one directory share them.
    public var store: BundleStore
    /// The context keys, and the time budgets of the load and the scenarios (stages 2 to 5).
    public var gate: BundleGate.Options
    /// The app's pinned scenario files, "these must always hold": run at stage 5 with the
    /// bundle's own, against the bundle's rules.
    public var contract: [String]
    /// Whether `install` returns only once the canary has its verdict (`.accepted` with
    /// `.passed`, or `.reverted`): it then waits for the routes the app makes. Otherwise it returns
    /// at the swap (`.accepted` with `.watching`), and the verdict comes by `bundleOutcomes()`.
    public var awaitsCanary: Bool
    /// How the canary watches the routes after a swap: the app's, which a manifest's `canary`
    /// may only tighten (more routes, a lower failure ratio).
    public var canary: CanaryPolicy
    /// How far above the store's floor one release may go: a version further up is refused at
    /// stage 1, since once its canary passed every release below it would be a replay.
    public var maximumVersionStep: Int
    /// Whether a bundle offered must say until when it may be installed (`BundleManifest.expires`),
    /// so that one captured today cannot be replayed onto a device that never saw the next.
    public var requiresExpiry: Bool

    public init(
        store: BundleStore, gate: BundleGate.Options = .init(), contract: [String] = [], awaitsCanary: Bool = false,
        canary: CanaryPolicy = .init(), maximumVersionStep: Int = 1000, requiresExpiry: Bool = false
    ) {
        self.store = store
        self.gate = gate
        self.contract = contract
        self.awaitsCanary = awaitsCanary
        self.canary = canary
        self.maximumVersionStep = max(1, maximumVersionStep)
        self.requiresExpiry = requiresExpiry
    }
}
