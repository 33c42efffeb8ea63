import Portolan
@testable import PortolanTools
import Testing
import TestSupport

/// Back after a tab tap on a tab bar that keeps its stacks and goes back through its history
/// returns to the tab the user came from, stack and all; the explorer reports a back that does not.
@Suite struct ExploreBackTests {
    static func app(turningBackAway: Bool) -> String {
        """
        local portolan = require "portolan"
        portolan.app { id = "root", kind = "switch", keep = true, back = "history", children = {
          { id = "a", children = { { id = "a1" } } },
          { id = "b", children = { { id = "b1" } } },
          { id = "c" },
        } }
        if \(turningBackAway) then
          portolan.intercept(function(request)
            local from, to = request.from[#request.from], request.destination[#request.destination]
            local id = function(entry) return type(entry) == "table" and entry.id or entry end
            if id(from) == "b" and id(to) == "a1" then return portolan.redirect { "root", "c" } end
          end)
        end
        """
    }

    @Test func backThroughATabBarsHistoryReturnsToTheTabLeft() async throws {
        let directory = try TemporaryDirectory("explore-back", files: [
            "good.lua": Self.app(turningBackAway: false), "bad.lua": Self.app(turningBackAway: true),
        ])
        defer { directory.remove() }
        let good = try await Explorer(app: directory.path("good.lua"), options: .init(depth: 3)).run()
        #expect(good.findings.isEmpty, "\(good.findings.map(\.summary))")
        let bad = try await Explorer(app: directory.path("bad.lua"), options: .init(depth: 3)).run()
        let mismatch = try #require(bad.findings.first { $0.kind == .backMismatch })
        #expect(mismatch.path == "root > a > a1", "\(mismatch.summary)")
        #expect(mismatch.action == .tab(switchID: "root", child: "b") || mismatch.action?.description.hasSuffix("root > b") == true)
        #expect(mismatch.evidence.contains("back then led to root > c"), "\(mismatch.evidence)")
    }
}
