import PortolanLua
import PortolanShipping

extension BundleGate {
    /// The gate's stages 3 to 5 (load under the app-load limits, `check` with no errors, the
    /// scenarios) on a bundle's source directory: the bundle is built from it as `portolan bundle
    /// build` builds it, then unpacked and run as `check` and `install` run one. It is how the
    /// REPL's `:reload` and `--watch` gate an edit (`ReloadGate`): one gate, not a second one.
    ///
    /// A working copy has no signature, so stage 1 is only the build's own checks (the bundle is
    /// signed with a key made for this check and thrown away), and stage 2 is skipped: the tools'
    /// hosts bind no Swift nodes. `functions` are registered in the gate's hosts, as the live
    /// host's are for `install`.
    public static func checkRules(
        of source: BundleSource, functions: [String: HostFunction] = [:], options: Options = .init()
    ) async -> BundleGateOutcome {
        let key = BundleSigningKey()
        let bundle: RulesBundle, files: BundleUnpacking
        do throws(BundleError) {
            bundle = try RulesBundle.read(try source.bundle(signedWith: key)).get()
            files = try BundleUnpacking(bundle)
        } catch {
            return .rejected(stage: .integrity, reason: .invalid(error))
        }
        defer { files.remove() }
        let gate = BundleGate(publicKey: key.publicKey, options: options)
        let rules = RulesUnderTest(manifest: bundle.manifest, files: files, functions: functions)
        if let rejection = await gate.run(rules) { return rejection }
        return .passed(bundle.manifest)
    }
}
