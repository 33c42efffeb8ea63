import Foundation
import PortolanLua
import PortolanShipping

/// `EmbeddedHost deliver --public-key KEY [--store DIR] URL...`: the whole path of a rules
/// change, as an app runs it (docs/embedding.md, "Delivering rules bundles").
///
/// The app makes one `RulesUpdater` with its host, the key it trusts and its options (the store,
/// the canary's policy), and links PortolanShipping for it, none of the tools.
/// 1. At start, the store's rules go back in service (`installKnownGood`): a canary's watch the
///    last run did not live to end, resumed, or else the last known good bundle.
/// 2. For each URL: the bundle is fetched (`BundleDownload`, URLSession) and handed to
///    `updater.install(bundle:)`, which runs the gate and swaps it in, or refuses it.
/// 3. After a swap, the app is used (`useTheApp`) while the canary watches those routes; too
///    many failures and the host reverts to the rules before, on its own.
///
/// Every outcome is printed from `updater.outcomes()`, where an app would send it to its own
/// analytics: `outcome: accepted: …`, `outcome: rejected at stage S (…): …`, `outcome: reverted: …
/// after N failing route(s): …`.
struct BundleDelivery {
    let publicKey: BundlePublicKey
    let options: BundleInstallOptions
    let urls: [URL]

    struct UsageError: Error, CustomStringConvertible {
        let description: String
    }

    static let usage = "usage: EmbeddedHost deliver --public-key KEY [--store DIR] URL..."

    /// The delivery the arguments ask for, or, when they ask for none, a line on standard error
    /// and exit status 2.
    static func parse(_ arguments: [String]) -> BundleDelivery {
        do {
            return try BundleDelivery(arguments: arguments)
        } catch {
            FileHandle.standardError.write(Data("\(error)\n".utf8))
            exit(2)
        }
    }

    init(arguments: [String]) throws(UsageError) {
        var key: String?, store = "bundle-store", urls: [URL] = []
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--public-key": key = rest.popFirst()
            case "--store": store = rest.popFirst() ?? store
            default:
                guard let url = URL(string: argument), url.scheme == "http" || url.scheme == "https" else {
                    throw UsageError(description: "not an http(s) URL: \(argument)\n\(Self.usage)")
                }
                urls.append(url)
            }
        }
        guard let key else { throw UsageError(description: Self.usage) }
        do {
            publicKey = try BundlePublicKey(text: key)
        } catch {
            throw UsageError(description: "--public-key: \(error.reason)")
        }
        // An app that pins scenarios of its own ("these must always hold") names their files in
        // `contract:`; the gate runs them against every bundle, beside the bundle's own.
        // The canary's policy is the app's: a bundle's manifest may ask for more routes or a lower
        // failure ratio, never less. Here: watch 6 routes, revert on the second failure.
        options = BundleInstallOptions(store: BundleStore(directory: store), canary: CanaryPolicy(routes: 6, maximumFailureRatio: 0.2))
        self.urls = urls
    }

    func run(on host: PortolanHost, signedIn: SignedInFlag) async {
        let updater = RulesUpdater(host: host, publicKey: publicKey, options: options)
        // Taken before the first install, so that it hears every outcome.
        var outcomes = updater.outcomes().makeAsyncIterator()
        if let started = await updater.installKnownGood() {
            print("the store's rules, in service again:")
            // A watch given up on is announced before the known good that then serves.
            while let outcome = await outcomes.next() {
                print("outcome: " + outcome.text)
                if outcome == started { break }
            }
            if case .accepted(_, .resumed(let routes, _)) = started {
                await useTheApp(host, routes: routes, signedIn: signedIn)
                if let verdict = await outcomes.next() { print("outcome: " + verdict.text) }
            }
        }
        for url in urls {
            let bytes: [UInt8]
            do {
                bytes = try await BundleDownload.fetch(url)
            } catch {
                print(error.description)
                continue
            }
            print("fetched \(url.absoluteString): \(bytes.count) bytes")
            _ = await updater.install(bundle: bytes)
            guard let outcome = await outcomes.next() else { return }
            print("outcome: " + outcome.text)
            guard case .accepted(_, .watching(let routes)) = outcome else { continue }
            await useTheApp(host, routes: routes, signedIn: signedIn)
            if let verdict = await outcomes.next() { print("outcome: " + verdict.text) }
        }
    }

    /// A user at work while the canary watches: signed in, opening books and the account page,
    /// `routes` routes in all; then signed out again, as the app was when the bundle came.
    private func useTheApp(_ host: PortolanHost, routes: Int, signedIn: SignedInFlag) async {
        let visits: [(name: String, destination: Destination)] = [
            ("book 42", .path(["root", "home", Entry("book", context: ["id": 42])])),
            ("account", .path(["root", "account"])),
            ("home", .path(["root", "home"])),
        ]
        signedIn.value = true
        defer { signedIn.value = false }
        for index in 0..<routes {
            let visit = visits[index % visits.count]
            switch await host.route(visit.destination) {
            case .success: print("  route to \(visit.name): done")
            case .failure(let failure): print("  route to \(visit.name): failed (\(failure.kind))")
            }
        }
    }
}
