import Foundation
@testable import PortolanInspector
import Testing

/// The page's Content-Security-Policy (issue 18, finding 5): only the page's own inline script runs,
/// so text or SVG an app supplies could not run script even were it to slip through unescaped.
/// That the real page still works under it is the browser tests' part (Tests/Browser).
@Suite struct InspectorPolicyTests {
    @Test func thePageIsServedWithAPolicyNamingItsOwnScriptOnly() {
        let head = String(decoding: InspectorResponse.page.bytes.prefix(2048), as: UTF8.self)
        let policy = head.split(separator: "\r\n").first { $0.hasPrefix("Content-Security-Policy: ") }
        #expect(policy?.contains("default-src 'none'") == true, "\(head)")
        #expect(policy?.contains("script-src 'sha256-") == true, "\(head)")
        #expect(policy?.contains("unsafe-inline'; img-src") == true, "only style may be inline: \(String(describing: policy))")
    }

    @Test func anotherScriptGetsAnotherHashAndNoScriptGetsNone() {
        let one = InspectorResponse.pagePolicy(Array("<p><script>a()</script>".utf8))
        let other = InspectorResponse.pagePolicy(Array("<p><script>b()</script>".utf8))
        #expect(one != other)
        #expect(InspectorResponse.pagePolicy(Array("<p>no script</p>".utf8)).contains("script-src 'none'"))
    }
}
