import Portolan
import PortolanLua

/// The gate a rules bundle passes before a host may take it: its first five stages
/// (`BundleGateStage`), each run only when the one before passed, and none touching the live host
/// but to read what it provides. Whatever the bytes, the live rules and tree stay as they were.
///
/// It lives in PortolanTools, not beside the host in PortolanLua, because stages 3 to 5 are the
/// tools' own: the app-load limits (`AppLoadLimits`), the linter (`AppChecker`) and the scenario
/// runner. The host layer must not import them, and one linter and one runner is what `portolan
/// check` and `portolan test` use too.
public struct BundleGate: Sendable {
    public struct Options: Sendable {
        /// The context keys the app provides to rules (a bundle's `requires.context`).
        public var contextKeys: Set<String>
        /// How long the bundle's scenarios may take together.
        public var scenarioBudget: Duration
        /// How long the load in the sandboxed host may take (`AppLoadLimits.timeLimit` by default).
        public var loadTimeLimit: Duration

        public init(contextKeys: Set<String> = [], scenarioBudget: Duration = .seconds(30), loadTimeLimit: Duration = AppLoadLimits.timeLimit) {
            self.contextKeys = contextKeys
            self.scenarioBudget = scenarioBudget
            self.loadTimeLimit = loadTimeLimit
        }
    }

    public let publicKey: BundlePublicKey
    public let options: Options

    public init(publicKey: BundlePublicKey, options: Options = .init()) {
        self.publicKey = publicKey
        self.options = options
    }

    /// Runs the stages on `bytes` for `host`, which is only read (its Swift nodes and functions).
    public func check(_ bytes: [UInt8], for host: PortolanHost) async -> BundleGateOutcome {
        let bundle: RulesBundle
        switch RulesBundle.verified(bytes, publicKey: publicKey) {
        case .success(let verified): bundle = verified
        case .failure(let error): return .rejected(stage: .integrity, reason: .invalid(error))
        }
        if let missing = await requirementMissing(bundle.manifest, on: host) {
            return .rejected(stage: .requirements, reason: .invalid(missing))
        }
        let unpacked: BundleUnpacking
        do {
            unpacked = try BundleUnpacking(bundle)
        } catch {
            return .rejected(stage: .load, reason: .loadFailed(error.reason))
        }
        defer { unpacked.remove() }
        if let rejection = await runRules(of: bundle.manifest, unpackedIn: unpacked) { return rejection }
        return .passed(bundle.manifest)
    }

    /// Stage 2: the ABI first, then nodes, functions and context keys, each in the manifest's order.
    func requirementMissing(_ manifest: BundleManifest, on host: PortolanHost) async -> BundleError? {
        guard manifest.abi <= RulesABI.current else { return .abiTooNew(required: manifest.abi, supported: RulesABI.current) }
        let nodes = await host.swiftNodeIDs, functions = await host.registeredFunctionNames
        if let node = manifest.requires.nodes.first(where: { !nodes.contains($0) }) {
            return .missingRequirement(kind: "Swift node", name: node)
        }
        if let function = manifest.requires.functions.first(where: { !functions.contains($0) }) {
            return .missingRequirement(kind: "host function", name: function)
        }
        if let key = manifest.requires.contextKeys.first(where: { !options.contextKeys.contains($0) }) {
            return .missingRequirement(kind: "context key", name: key)
        }
        return nil
    }

    /// Stages 3 to 5 on the unpacked files.
    private func runRules(of manifest: BundleManifest, unpackedIn files: BundleUnpacking) async -> BundleGateOutcome? {
        let entry = files.path(manifest.entry)
        do {
            var configuration = AppLoadLimits.configuration
            configuration.moduleDirectory = files.root
            let sandbox = try PortolanHost(configuration: configuration)
            await sandbox.setOutput { _ in }
            try await AppLoadLimits.loadApp(sandbox, file: entry, within: options.loadTimeLimit)
        } catch {
            return .rejected(stage: .load, reason: .loadFailed(files.relative(error.message)))
        }
        let report = await AppChecker.check(file: entry)
        if report.hasErrors {
            let errors = report.findings.filter { $0.severity == .error }.map { finding in
                CheckFinding(finding.severity, finding.code, file: manifest.entry, line: finding.line, files.relative(finding.message))
            }
            return .rejected(stage: .lint, reason: .lintErrors(errors))
        }
        return await runScenarios(of: manifest, entry: entry, files: files)
    }

    /// Stage 5: every scenario file the manifest names, with the entry as their app.
    private func runScenarios(of manifest: BundleManifest, entry: String, files: BundleUnpacking) async -> BundleGateOutcome? {
        guard !manifest.scenarios.isEmpty else { return nil }
        let runner = ScenarioRunner(options: .init(
            app: entry, timeout: options.scenarioBudget, host: AppLoadLimits.configuration))
        // Every scenario runs: a `scenario.only` in a bundle fails the gate rather than narrow it.
        let results = await runner.run(files: manifest.scenarios.map(files.path), selection: .forbiddingOnly)
        let failures = results.compactMap { result -> String? in
            guard case .failed(let message) = result.outcome else { return nil }
            let file = String(result.file.dropFirst(files.root.count + 1))
            return "\(file): \(result.name): \(files.relative(message))"
        }
        if !failures.isEmpty { return .rejected(stage: .scenarios, reason: .scenariosFailed(failures)) }
        let took = results.reduce(Duration.zero) { $0 + $1.duration }
        if took > options.scenarioBudget {
            return .rejected(stage: .scenarios, reason: .scenarioBudgetExceeded(took: took, budget: options.scenarioBudget))
        }
        return nil
    }
}

extension PortolanHost {
    /// Runs the gate's stages on a bundle's bytes for this host (`BundleGate`). Nothing is
    /// installed: the running rules and the live tree are never touched, whatever the outcome.
    public nonisolated func checkBundle(
        _ bytes: [UInt8], publicKey: BundlePublicKey, options: BundleGate.Options = .init()
    ) async -> BundleGateOutcome {
        await BundleGate(publicKey: publicKey, options: options).check(bytes, for: self)
    }
}
