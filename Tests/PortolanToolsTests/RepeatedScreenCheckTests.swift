@testable import PortolanTools
import Testing
@testable import PortolanShipping

/// `portolan check` on apps with repeated screens (issue 20, §1): a redirect along a declared push
/// is a path of the graph, one along an undeclared one is not, and the fields `push` and `launch`
/// are no misspellings.
@Suite struct RepeatedScreenCheckTests {
    private static func app(pushes: String) -> String {
        """
        local portolan = require "portolan"
        portolan.app {
          id = "root", max_copies = 4,
          children = {
            { id = "home", \(pushes) children = { { id = "product", \(pushes) launch = "single_top" } } },
          },
        }
        portolan.intercept(function(request)
          if request:goes_to("home") and locked then
            return portolan.redirect { "root", "home", "product", "product" }
          end
        end)
        """
    }

    @Test func aRedirectAlongADeclaredPushIsAPathOfTheGraph() async {
        let declared = await AppChecker.check(source: Self.app(pushes: #"push = { "product" },"#), file: "app.lua")
        #expect(declared.findings.map(\.code.rawValue) == [], "\(declared.findings)")
        let undeclared = await AppChecker.check(source: Self.app(pushes: ""), file: "app.lua")
        #expect(undeclared.findings.map(\.code.rawValue) == ["invalid-redirect"], "\(undeclared.findings)")
        #expect(undeclared.findings.first?.message.contains("'product' follows 'product'") == true)
    }
}
