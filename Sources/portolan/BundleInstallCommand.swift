import ArgumentParser
import Lua
import Portolan
import PortolanLua
import PortolanShipping
import PortolanTools

import Foundation

/// `portolan bundle install FILE --app APP --public-key K`: what an app does with a bundle it was
/// given, on the command line: the app's rules loaded, the store's known good installed as at a
/// start, then the whole gate (`host.install`), and the canary over the routes of `--routes`.
struct BundleInstallCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "install",
        abstract: "Install a bundle into an app through the whole gate, and print the outcome.",
        discussion: ExitStatusHelp.paragraph([
            (0, "accepted (the canary passed or still watches)"), (1, "rejected at a stage, or reverted by the canary"),
            (2, "a file, the app or the key cannot be read, or the key is not one"),
        ])
    )

    @Argument(help: "The bundle file.") var file: String
    @Option(help: ArgumentHelp(AppScript.meaning + " Its rules are those in service before the bundle.", valueName: AppScript.valueName))
    var app: String
    @Option(help: ArgumentHelp(
        "A public key the app trusts (`ed25519:…`), or a file holding it; repeat it to trust two while rotating keys.", valueName: "K"))
    var publicKey: [String]
    @Flag(help: ArgumentHelp("Refuse a bundle whose manifest does not say until when it may be installed."))
    var requireExpiry = false
    @Option(help: ArgumentHelp("The bundle store: known good, installed versions, quarantine (a fresh one when not given).", valueName: "DIR"))
    var store: String?
    @Option(help: ArgumentHelp("A scenario file the rules must always pass (repeat for more).", valueName: "SCENARIOS"))
    var contract: [String] = []
    @Option(help: ArgumentHelp("A context key the app provides (repeat for more).", valueName: "KEY")) var context: [String] = []
    @Option(help: ArgumentHelp("Routes to run after the swap, for the canary: a URL (`/about`) or ids (`root/about`) a line.", valueName: "FILE"))
    var routes: String?
    @Option(help: ArgumentHelp("The app's canary policy: the fewest routes it watches; a manifest may ask for more.", valueName: "N"))
    var canaryRoutes = CanaryPolicy().routes
    @Option(help: ArgumentHelp(
        "The app's canary policy: the largest share of them that may fail; a manifest may ask for less.", valueName: "RATIO"))
    var canaryMaxFailureRatio = CanaryPolicy().maximumFailureRatio

    func run() async throws {
        let keys = try publicKey.map { try BundleKeyText.publicKey($0, command: "install") }
        let bytes = try CommandInput.bytes(of: file, orSay: "portolan bundle install: cannot read the bundle \(file)")
        let lines = try routes.map { path in
            String(decoding: try CommandInput.bytes(of: path, orSay: "portolan bundle install: cannot read the routes \(path)"), as: UTF8.self)
                .split(separator: "\n").map { String($0.filter { $0 != " " && $0 != "\t" && $0 != "\r" }) }
                .filter { !$0.isEmpty && !$0.hasPrefix("#") }
        } ?? []
        let host: PortolanHost
        do {
            host = try PortolanHost(configuration: AppLoadLimits.configuration)
            await host.setOutput { _ in }
            try await AppLoadLimits.loadApp(host, file: app)
        } catch {
            StandardStreams.errorLine("portolan bundle install: \(error.message)")
            throw ExitCode(2)
        }
        let directory = store ?? FileManager.default.temporaryDirectory.appendingPathComponent("portolan-store-\(UInt64.random(in: 0...UInt64.max))").path
        defer { if store == nil { try? FileManager.default.removeItem(atPath: directory) } }
        let options = BundleInstallOptions(
            store: BundleStore(directory: directory), gate: .init(contextKeys: Set(context)), contract: contract,
            canary: CanaryPolicy(routes: canaryRoutes, maximumFailureRatio: canaryMaxFailureRatio), requiresExpiry: requireExpiry)
        let updater = RulesUpdater(host: host, publicKeys: keys, options: options)
        if let started = await updater.installKnownGood() { StandardStreams.report("at start: " + started.text) }
        let outcome = await Self.install(bytes, routing: lines, with: updater)
        StandardStreams.report(outcome.text)
        if outcome.name != "accepted" { throw ExitCode(1) }
    }

    /// Installs, then routes `lines` while the canary watches; the canary's verdict when it came.
    private static func install(_ bytes: [UInt8], routing lines: [String], with updater: RulesUpdater) async -> BundleInstallOutcome {
        let host = updater.host
        let outcomes = updater.outcomes()
        let outcome = await updater.install(bundle: bytes)
        guard case .accepted(_, .watching) = outcome, !lines.isEmpty else { return outcome }
        for line in lines where await updater.isCanaryWatching {
            if line.hasPrefix("/") || line.contains("://") {
                _ = await host.route(url: line)
            } else {
                _ = await host.route(.path(line.split(separator: "/").map { Entry(String($0)) }))
            }
        }
        guard await !updater.isCanaryWatching else { return outcome }
        for await next in outcomes {
            switch next {
            case .reverted, .revertFailed, .accepted(_, .passed): return next
            default: continue
            }
        }
        return outcome
    }
}
