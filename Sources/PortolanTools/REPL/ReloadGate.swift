import Portolan
import PortolanLua
import PortolanShipping

/// The gate `:reload` and `--watch` put an edit through before it replaces the rules in service,
/// when the app declares its scenarios the way a bundle does: a `bundle.json` beside the app file
/// whose `entry` is that file (docs/bundles.md, "Lay out the rules"). The directory is then a
/// bundle's source, and an edit is judged as the device would judge the bundle built from it:
/// `BundleGate.checkRules(of:)`, the gate's stages 3 to 5 (load, check, scenarios), minus the
/// signature, which a working copy does not have, and the requirements, which the REPL's host,
/// binding no Swift nodes, could not meet. An app with no `bundle.json` reloads as before.
enum ReloadGate {
    /// What the gate made of the app's files as they are now.
    enum Verdict {
        /// No `bundle.json` names this app file as its entry: the reload is not gated.
        case notGated
        /// Every stage passed; the reload may go ahead.
        case passed(BundleManifest)
        /// The edit is refused, for the reason given (`BundleGateOutcome.text`, or why
        /// `bundle.json` could not be read); the rules in service stay.
        case rejected(String)
    }

    /// Runs the gate on the directory of `appFile`, when it is a bundle's source for that file,
    /// with the session host's Swift `functions` registered in the gate's hosts.
    static func check(appFile: String, functions: [String: HostFunction]) async -> Verdict {
        let source: BundleSource
        switch Self.source(of: appFile) {
        case nil: return .notGated
        case .failure(let error): return .rejected("\(BundleSource.manifestFile): \(error.reason)")
        case .success(let found): source = found
        }
        let outcome = await BundleGate.checkRules(of: source, functions: functions)
        if case .passed(let manifest) = outcome { return .passed(manifest) }
        return .rejected(outcome.text)
    }

    /// What the gate runs, for a note when it passed: `load, check, 2 scenario files`.
    static func stagesRun(for manifest: BundleManifest) -> String {
        let count = manifest.scenarios.count
        return "load, check, \(count) scenario file" + (count == 1 ? "" : "s")
    }

    /// The files besides the app's own whose edit `--watch` answers when the reload is gated:
    /// `bundle.json` and the scenario files it names (an edit to a scenario that made the gate
    /// refuse the rules is a reason to try them again).
    static func declaredFiles(appFile: String) -> [String] {
        let directory = FilePaths.directory(of: appFile)
        let inDirectory = { (name: String) in directory == "." ? name : directory + "/" + name }
        switch source(of: appFile) {
        case nil: return []
        case .failure: return [inDirectory(BundleSource.manifestFile)]
        case .success(let source): return ([BundleSource.manifestFile] + source.manifest.scenarios).map(inDirectory)
        }
    }

    /// The bundle source `appFile` is the entry of: nil when its directory has no `bundle.json`, or
    /// one whose `entry` is another file; a failure when `bundle.json` or a file cannot be read.
    private static func source(of appFile: String) -> Result<BundleSource, BundleError>? {
        let directory = FilePaths.directory(of: appFile)
        guard FilePaths.exists(directory + "/" + BundleSource.manifestFile) else { return nil }
        let source: BundleSource
        do {
            source = try BundleSource(directory: directory)
        } catch {
            return .failure(error)
        }
        let name = appFile.split(separator: "/").last.map(String.init) ?? appFile
        return source.manifest.entry == name ? .success(source) : nil
    }
}
