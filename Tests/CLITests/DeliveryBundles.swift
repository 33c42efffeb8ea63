import PortolanLua
import PortolanShipping

/// The rules bundles a server offers the example app (`Examples/EmbeddedHost`), each a release of
/// its rules (`com.example.shop`), built and signed with the Swift API as `portolan bundle build`
/// builds them. The app's Swift side is the example's: the `signed_in` function and the `book`
/// screen, which every bundle requires.
struct DeliveryBundles {
    let key: BundleSigningKey

    /// The example's embedded rules with the screens of a release.
    static func app(account: String = #"{ id = "account" }"#, extra: String = #"{ id = "help" }"#) -> String {
        """
        portolan.app {
          id = "root", kind = "switch", active = "home",
          children = {
            { id = "home", children = {
                { id = "book", guard = function(node, request)
                    if not signed_in() then return portolan.redirect { "root", "account" } end
                  end },
              } },
            \(account),
            \(extra),
          },
        }

        """
    }

    /// The release's own scenarios, which the gate runs (stage 5) with the live app's `signed_in`.
    static let scenarios = """
        scenario("the account page opens", function()
          assert(portolan.route { "root", "account" })
          expect(portolan.active_path(), { "root", "account" })
        end)

        scenario("signed out, a book sends to the account page", function()
          portolan.route { "root", "home", { id = "book", context = { id = 1 } } }
          expect(portolan.active_path(), { "root", "account" })
        end)

        """

    /// A release's bytes: `app.lua` and its scenarios under a manifest of `version`, signed with `key`.
    static func bundle(version: Int, app: String, signedWith key: BundleSigningKey) throws -> [UInt8] {
        let manifest = BundleManifest(
            id: "com.example.shop", version: version, entry: "app.lua",
            requires: BundleRequirements(nodes: ["book"], functions: ["signed_in"]), files: [],
            scenarios: ["scenarios/account.lua"], canary: CanarySettings(routes: 6, maximumFailureRatio: 0.2))
        let files = ["app.lua": app, "scenarios/account.lua": scenarios].mapValues { Array($0.utf8) }
        return try RulesBundle.encode(manifest, files: files, signingKey: key)
    }

    /// What the server serves, by file name.
    var served: [String: [UInt8]] {
        get throws {
            [
                // A new screen: passes every stage, and its canary.
                "good.bundle": try Self.bundle(version: 2, app: Self.app(), signedWith: key),
                // `account` renamed: its scenarios, not updated, fail at stage 5.
                "failing-scenario.bundle": try Self.bundle(
                    version: 3,
                    app: Self.app(account: #"{ id = "profile" }"#).replacingOccurrences(
                        of: #"redirect { "root", "account" }"#, with: #"redirect { "root", "profile" }"#),
                    signedWith: key),
                // Good rules, signed by someone else's key: refused at stage 1.
                "bad-signature.bundle": try Self.bundle(version: 4, app: Self.app(), signedWith: BundleSigningKey()),
                // The account page fails once the user is signed in, which its scenarios never are:
                // it passes the gate, and the canary reverts it after the second failure (20% of 6
                // routes allows one).
                "failing-canary.bundle": try Self.bundle(
                    version: 5,
                    app: Self.app(account: """
                        { id = "account", guard = function()
                              if signed_in() then error("the profile service is not there") end
                            end }
                        """),
                    signedWith: key),
            ]
        }
    }
}
