import FlyingFox
import Foundation
import PortolanLua
import PortolanShipping
import Testing
import TestSupport

/// The example app's delivery of rules bundles (`EmbeddedHost deliver`), end to end: a real HTTP
/// server on 127.0.0.1 (FlyingFox, on a port the system picks) serves signed bundles, and the
/// built example fetches each with URLSession, installs it through the gate and prints each
/// outcome. A good bundle is accepted and its canary passes; a failing scenario and a bad
/// signature are rejected at their stages; one that passes the gate but fails its routes is
/// reverted, its failing routes named. Run again on the same store, as after a restart, the app
/// puts the known good back and installs none of the others.
@Suite struct EmbeddedHostDeliveryTests {
    static let example = PortolanBinary.sibling("EmbeddedHost")

    @Test(.enabled(if: example != nil, "the EmbeddedHost example was not built beside portolan"), .timeLimit(.minutes(10)))
    func theExampleAcceptsRejectsAndRevertsWhatTheServerServes() async throws {
        let key = BundleSigningKey()
        let served = try DeliveryBundles(key: key).served
        let server = try await BundleServer(serving: served)
        let store = try TemporaryDirectory("store")
        defer { store.remove() }
        do {
            try await Self.deliverTwice(from: server, served: served, key: key, store: store)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    /// What an app links to take rules updates (issue 33): the example installs bundles through
    /// PortolanShipping and links none of the tools. Swift's metadata names each type's module
    /// by its mangled prefix (`13PortolanTools`, `16PortolanShipping`), so a type of the tools'
    /// linked in, a REPL's or an explorer's, would show in the binary's bytes.
    @Test(.enabled(if: example != nil, "the EmbeddedHost example was not built beside portolan"))
    func theExampleLinksTheShippingTargetAndNoneOfTheTools() throws {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: try #require(Self.example)))
        #expect(bytes.range(of: Data("16PortolanShipping".utf8)) != nil, "the example installs bundles through PortolanShipping")
        #expect(bytes.range(of: Data("13PortolanTools".utf8)) == nil, "the example links a type of PortolanTools")
    }

    /// The first run, then the restart.
    static func deliverTwice(from server: BundleServer, served: [String: [UInt8]], key: BundleSigningKey, store: TemporaryDirectory) async throws {
        let urls = ["good", "failing-scenario", "bad-signature", "failing-canary", "missing"].map { server.url(of: $0) }

        let first = try await deliver(urls, key: key, store: store)
        #expect(first.status == 0, "\(first.stderr)")
        let lines = first.stdout.split(separator: "\n").map(String.init)
        let outcomes = Self.outcomes(in: lines)
        #expect(outcomes.count == 6, "\(first.stdout)")
        guard outcomes.count == 6 else { return }
        #expect(outcomes[0] == "accepted: com.example.shop version 2 (canary watching the next 6 routes)")
        #expect(outcomes[1] == "accepted: com.example.shop version 2 (canary passed 6 routes)")
        #expect(outcomes[2].hasPrefix(
            "rejected at stage 5 (scenarios): scenario failed: scenarios/account.lua: the account page opens: unreachable: "), "\(outcomes[2])")
        #expect(outcomes[3].hasPrefix("rejected at stage 1 (integrity): untrusted key: the manifest is signed by key "))
        #expect(outcomes[4] == "accepted: com.example.shop version 5 (canary watching the next 6 routes)")
        #expect(outcomes[5].hasPrefix("reverted: com.example.shop version 5 after 2 failing route(s): root > account (handler_failed): "), "\(outcomes[5])")
        #expect(outcomes[5].contains("the profile service is not there"), "\(outcomes[5])")
        #expect(lines.last == "cannot fetch \(server.url(of: "missing")): HTTP 404")
        // Every bundle served was fetched whole.
        for name in ["good", "failing-scenario", "bad-signature", "failing-canary"] {
            #expect(lines.contains("fetched \(server.url(of: name)): \(served[name + ".bundle"]?.count ?? -1) bytes"), "\(first.stdout)")
        }
        // The canary saw two of its routes fail, and the rules before it (version 2's) serve the rest.
        let canaryRoutes = lines.drop { !$0.contains("version 5 (canary watching") }.filter { $0.hasPrefix("  route to ") }
        #expect(canaryRoutes.filter { $0 == "  route to account: failed (handler_failed)" }.count == 2, "\(first.stdout)")
        #expect(canaryRoutes.last == "  route to home: done", "\(first.stdout)")

        // A restart: the known good is back, the replayed and quarantined versions are refused.
        let second = try await deliver(urls, key: key, store: store)
        let secondLines = second.stdout.split(separator: "\n").map(String.init)
        let again = Self.outcomes(in: secondLines)
        #expect(again.count == 5, "\(second.stdout)")
        guard again.count == 5 else { return }
        #expect(secondLines.first == "the store's rules, in service again:")
        #expect(again[0] == "accepted: com.example.shop version 2 (known good: its canary passed on an earlier run)")
        // Version 5 was reverted: the floor is the version whose canary passed.
        #expect(again[1] == "rejected at stage 1 (integrity): replayed older version: com.example.shop version 2, and version 2 is installed")
        #expect(again[2].hasPrefix("rejected at stage 1 (integrity): quarantined: com.example.shop version 3"), "\(again[2])")
        #expect(again[3].hasPrefix("rejected at stage 1 (integrity): untrusted key: the manifest is signed by key "))
        #expect(again[4].hasPrefix("rejected at stage 1 (integrity): quarantined: com.example.shop version 5"), "\(again[4])")
        #expect(secondLines.last == "cannot fetch \(server.url(of: "missing")): HTTP 404")
    }

    @Test(.enabled(if: example != nil, "the EmbeddedHost example was not built beside portolan"))
    func withoutAKeyTheExampleSaysHowToCallIt() async throws {
        let run = try await PortolanBinary.run(program: Self.example ?? "", ["deliver", "http://127.0.0.1:1/x.bundle"], in: Repository.root)
        #expect(run.status == 2)
        #expect(run.stderr == "usage: EmbeddedHost deliver --public-key KEY [--store DIR] URL...\n")
    }

    /// The outcomes the example printed, without their `outcome: ` (a scenario's message may go on
    /// over more lines, which are left out).
    static func outcomes(in lines: [String]) -> [String] {
        lines.filter { $0.hasPrefix("outcome: ") }.map { String($0.dropFirst("outcome: ".count)) }
    }

    /// Runs `EmbeddedHost deliver` on `urls`, with no proxy between it and 127.0.0.1.
    static func deliver(_ urls: [String], key: BundleSigningKey, store: TemporaryDirectory) async throws -> PortolanBinary.Run {
        let arguments = ["deliver", "--public-key", key.publicKey.text, "--store", store.root] + urls
        return try await PortolanBinary.run(
            program: example ?? "", arguments, in: store.root, environment: ["no_proxy": "127.0.0.1", "NO_PROXY": "127.0.0.1"])
    }
}

/// A FlyingFox server on 127.0.0.1, on a port the system picks, serving fixed files by name.
struct BundleServer {
    let server: HTTPServer
    let port: UInt16
    private let running: Task<Void, any Error>

    init(serving files: [String: [UInt8]]) async throws {
        server = HTTPServer(address: try .inet(ip4: "127.0.0.1", port: 0), timeout: 60, logger: .disabled)
        for (name, bytes) in files {
            await server.appendRoute(HTTPRoute(method: .GET, path: "/" + name)) { _ in
                HTTPResponse(statusCode: .ok, headers: [.contentType: "application/octet-stream"], body: Data(bytes))
            }
        }
        let server = self.server
        running = Task { try await server.run() }
        // Generous: the server only takes this long on a machine too busy to start it sooner.
        try await server.waitUntilListening(timeout: 60)
        guard case .ip4(_, let port)? = await server.listeningAddress else { throw TestFailure("the server has no IPv4 address") }
        self.port = port
    }

    func url(of name: String) -> String { "http://127.0.0.1:\(port)/\(name).bundle" }

    func stop() async {
        await server.stop()
        running.cancel()
    }
}
