import Foundation
import Testing
import TestSupport

/// `portolan graph` draws the rules a product person reads the app by (issue 25, §4): where a
/// guard sends a route when its source says so, the redirect rules, `back = "history"`,
/// `queue = "latest_wins"`, `schemes` and `hosts`, in every format; JSON gives routes and rules
/// fields of their own.
@Suite struct GraphRulesCLITests {
    static let app = """
        local portolan = require "portolan"
        logged_in = false
        portolan.app {
          id = "root", kind = "switch", queue = "latest_wins", schemes = { "shop" }, hosts = { "shop.example" },
          children = {
            { id = "login", route = "/login" },
            { id = "tabs", kind = "switch", keep = true, back = "history", children = {
              { id = "home", route = "/home" },
              { id = "account", route = "/account",
                guard = function(node, request)
                  if not logged_in then return portolan.redirect({ "root", "login" }, { resume = true }) end
                end },
              { id = "cart", route = "/cart",
                guard = function(node, request)
                  if not logged_in then return portolan.redirect "/login" end
                end },
            } },
            { id = "product", route = "/p/:id" },
          },
        }
        portolan.redirect_rule("/item/:id", "/p/:id")
        portolan.redirect_rule(function(url) if url == "/old" then return "/home" end end)

        """

    private func draw(_ format: String) async throws -> String {
        let directory = try TemporaryDirectory("graph-rules", files: ["app.lua": Self.app])
        defer { directory.remove() }
        let run = try await PortolanBinary.run(["graph", "app.lua", "--format", format], in: directory)
        #expect(run.status == 0, "\(format): \(run.stderr)")
        return run.stdout
    }

    @Test func theTextShowsGuardTargetsRedirectRulesBackQueueAndOrigins() async throws {
        let text = try await draw("text")
        #expect(text.contains("tabs [switch] (active: home)  [keep, back: history]"), "\(text)")
        #expect(text.contains("account  /account  [guard → root > login]"), "\(text)")
        #expect(text.contains("cart  /cart  [guard → /login]"), "\(text)")
        for line in ["redirect /item/:id → /p/:id", "redirect (a Lua function)", "queue: latest_wins", "schemes: shop", "hosts: shop.example"] {
            #expect(text.split(separator: "\n").contains(Substring(line)), "\(line) in \(text)")
        }
    }

    @Test(arguments: ["dot", "mermaid", "svg"])
    func everyDrawingShowsTheSameRules(_ format: String) async throws {
        let drawing = try await draw(format)
        // Each format escapes `>` its own way.
        let path = ["dot": "root > login", "mermaid": "root #gt; login", "svg": "root &gt; login"][format] ?? ""
        for text in ["guard → " + path, "guard → /login", "keep, back: history", "/item/:id → /p/:id", "(a Lua function)",
                     "queue: latest_wins", "schemes: shop", "hosts: shop.example"] {
            #expect(drawing.contains(text), "\(format) shows \(text):\n\(drawing)")
        }
    }

    @Test func jsonGivesRoutesRulesAndTheAppsRulesFieldsOfTheirOwn() async throws {
        let json = try await draw("json")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let nodes = try #require(object["nodes"] as? [[String: Any]])
        let byID = Dictionary(nodes.compactMap { node in (node["id"] as? String).map { ($0, node) } }) { first, _ in first }
        try #require(byID.count == 7)
        #expect(byID["account"]?["routes"] as? [String] == ["/account"])
        #expect(byID["account"]?["rules"] as? [String] == ["guard"])
        #expect(byID["account"]?["guardRedirects"] as? [String] == ["root > login"])
        #expect(byID["cart"]?["guardRedirects"] as? [String] == ["/login"])
        #expect(byID["tabs"]?["rules"] as? [String] == ["keep", "back: history"])
        #expect(byID["home"]?["details"] == nil, "patterns and rules no longer share details")
        let redirects = try #require(object["redirects"] as? [[String: Any]])
        try #require(redirects.count == 2)
        #expect(redirects[0]["from"] as? String == "/item/:id" && redirects[0]["to"] as? String == "/p/:id")
        #expect(redirects[1]["from"] is NSNull && redirects[1]["to"] is NSNull)
        #expect(object["queue"] as? String == "latest_wins")
        #expect(object["schemes"] as? [String] == ["shop"])
        #expect(object["hosts"] as? [String] == ["shop.example"])
    }
}
