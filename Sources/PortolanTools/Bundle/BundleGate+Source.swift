import PortolanLua

extension BundleGate {
    /// The gate's stages 3 to 5 (load under the app-load limits, `check` with no errors, the
    /// scenarios) on a bundle's source directory, as it would be built: the same files, the same
    /// entry, the same scenarios, run the same way, but with no signature to check (nothing is
    /// signed yet) and no requirements (the tools' hosts bind no Swift nodes). It is how the REPL's
    /// `:reload` and `--watch` gate an edit (`ReloadGate`): one gate, not a second one.
    public static func checkRules(of source: BundleSource, options: Options = .init()) async -> BundleGateOutcome {
        let unpacked: BundleUnpacking
        do {
            unpacked = try BundleUnpacking(manifest: source.manifest, files: source.files)
        } catch {
            return .rejected(stage: .load, reason: .loadFailed(error.reason))
        }
        defer { unpacked.remove() }
        if let rejection = await runRules(of: source.manifest, unpackedIn: unpacked, options: options) { return rejection }
        return .passed(source.manifest)
    }
}
