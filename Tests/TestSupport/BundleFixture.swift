import Portolan
import PortolanLua
import PortolanShipping

/// A small rules bundle for tests: an app of two screens and a scenario that passes, signed with
/// a key of its own; each test changes what its case needs (a file, a requirement, the ABI) first.
public struct BundleFixture: Sendable {
    public static let app = """
        portolan.app { id = "root", children = { { id = "home" }, { id = "about" } } }
        """
    public static let scenario = """
        scenario("about opens", function()
          assert(portolan.route { "root", "about" })
          expect(portolan.active_path(), { "root", "about" })
        end)
        """

    public var key = BundleSigningKey()
    public var files: [String: String] = ["app.lua": app, "scenarios/about.lua": scenario]
    public var manifest = BundleManifest(
        id: "com.example.rules", version: 2, entry: "app.lua", files: [], scenarios: ["scenarios/about.lua"],
        canary: CanarySettings(routes: 20, maximumFailureRatio: 0.1))

    public init() {}

    public var publicKey: BundlePublicKey { key.publicKey }

    /// The signed bundle's bytes.
    public func bytes() throws -> [UInt8] {
        try RulesBundle.encode(manifest, files: files.mapValues { Array($0.utf8) }, signingKey: key)
    }

    /// The same fixture with the app file replaced.
    public func withApp(_ source: String) -> BundleFixture {
        var fixture = self
        fixture.files["app.lua"] = source
        return fixture
    }
}
