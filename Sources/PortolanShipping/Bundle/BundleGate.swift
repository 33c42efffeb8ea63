import Portolan
import PortolanLua

/// The gate a rules bundle passes before a host may take it: stages 1 to 5 for `checkBundle`, and
/// stage 6 for `install` (`BundleInstaller`), each run only when the one before passed, and none
/// touching the live host but to read what it provides and its state. Whatever the bytes, the
/// live rules and tree stay as they were; its hosts have the live host's registered functions.
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

    /// The keys the app trusts: more than one while it rotates from one to the next.
    public let publicKeys: [BundlePublicKey]
    public let options: Options

    public init(publicKeys: [BundlePublicKey], options: Options = .init()) {
        self.publicKeys = publicKeys
        self.options = options
    }

    public init(publicKey: BundlePublicKey, options: Options = .init()) {
        self.init(publicKeys: [publicKey], options: options)
    }

    /// Runs the stages on `bytes` for `host`, which is only read (its Swift nodes and functions).
    public func check(_ bytes: [UInt8], for host: PortolanHost) async -> BundleGateOutcome {
        let bundle: RulesBundle
        switch RulesBundle.verified(bytes, trusting: publicKeys) {
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
            // This device's disk or temporary folder, not the bundle.
            return .rejected(stage: .load, reason: .invalid(error))
        }
        defer { unpacked.remove() }
        let rules = RulesUnderTest(manifest: bundle.manifest, files: unpacked, functions: await host.registeredFunctions)
        if let rejection = await run(rules) { return rejection }
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

    /// A bundle's rules as stages 3 to 6 run them: unpacked, with the live host's functions.
    package struct RulesUnderTest {
        let manifest: BundleManifest
        let files: BundleUnpacking
        /// The live host's registered functions, registered in every host of the gate too.
        let functions: [String: HostFunction]
        /// The app's pinned scenario files (stage 5).
        var contract: [String] = []
        /// The live state and its active path, for stage 6; nil skips it (`checkBundle`, no app).
        var live: LiveState?
    }

    struct LiveState: Sendable {
        let document: SnapshotDocument
        let activePath: [Entry]
    }

    /// Stages 3 to 6 on the unpacked files; nil when they all pass.
    package func run(_ rules: RulesUnderTest) async -> BundleGateOutcome? {
        let files = rules.files, manifest = rules.manifest
        let entry = files.path(manifest.entry)
        let sandbox: PortolanHost
        do {
            var configuration = AppLoadLimits.configuration
            configuration.moduleDirectory = files.root
            configuration.functions = rules.functions
            sandbox = try PortolanHost(configuration: configuration)
            await sandbox.setOutput { _ in }
            try await AppLoadLimits.loadApp(sandbox, file: entry, within: options.loadTimeLimit)
        } catch where error.isInterrupted {
            return .rejected(stage: .load, reason: .loadTimeLimit(files.relative(error.message)))
        } catch {
            return .rejected(stage: .load, reason: .loadFailed(files.relative(error.message)))
        }
        let report = await AppChecker.check(file: entry, functions: rules.functions)
        if report.hasErrors {
            let errors = report.findings.filter { $0.severity == .error }.map { finding in
                CheckFinding(finding.severity, finding.code, file: manifest.entry, line: finding.line, files.relative(finding.message))
            }
            return .rejected(stage: .lint, reason: .lintErrors(errors))
        }
        if let rejection = await runScenarios(of: rules, entry: entry) { return rejection }
        guard let live = rules.live else { return nil }
        let outcome = await sandbox.restore(live.document)
        let after = await sandbox.router?.activePath ?? []
        if let reason = BundleMigrationCheck.rejection(before: live.activePath, outcome: outcome, after: after) {
            return .rejected(stage: .migration, reason: reason)
        }
        return nil
    }

    /// Stage 5: every scenario file the manifest names, then the host's contract, with the entry
    /// as their app, all within one budget, held while they run: what is still running when it
    /// ends is cut, nothing starts after it, and the rules are refused for the time (a verdict on
    /// this device's speed, which never quarantines them), not for a failure it caused.
    private func runScenarios(of rules: RulesUnderTest, entry: String) async -> BundleGateOutcome? {
        let files = rules.files
        var configuration = AppLoadLimits.configuration
        configuration.functions = rules.functions
        let clock = ContinuousClock()
        let start = clock.now, deadline = start + options.scenarioBudget
        let runner = ScenarioRunner(options: .init(app: entry, timeout: options.scenarioBudget, host: configuration, deadline: deadline))
        for (paths, isContract) in [(rules.manifest.scenarios.map(files.path), false), (rules.contract, true)] where !paths.isEmpty {
            // Every scenario runs: a `scenario.only` fails the gate rather than narrow it.
            let results = await runner.run(files: paths, selection: .forbiddingOnly)
            if clock.now >= deadline {
                return .rejected(stage: .scenarios, reason: .scenarioBudgetExceeded(took: clock.now - start, budget: options.scenarioBudget))
            }
            let failures = results.compactMap { result -> String? in
                guard case .failed(let message) = result.outcome else { return nil }
                let file = isContract ? result.file : String(result.file.dropFirst(files.root.count + 1))
                return "\(file): \(result.name): \(files.relative(message))"
            }
            if !failures.isEmpty {
                return .rejected(stage: .scenarios, reason: isContract ? .contractFailed(failures) : .scenariosFailed(failures))
            }
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

extension BundleGate.RulesUnderTest {
    /// Rules checked as a working copy is (`checkRules`): no contract, no live state (stage 6 skipped).
    package init(manifest: BundleManifest, files: BundleUnpacking, functions: [String: HostFunction]) {
        self.init(manifest: manifest, files: files, functions: functions, contract: [], live: nil)
    }
}
