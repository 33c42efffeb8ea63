import Foundation
import PortolanInspector
import Testing

/// The server on real sockets of 127.0.0.1.
@Suite struct InspectorServerTests {
    @Test func portZeroPicksAFreePortAndATakenOneIsRefusedByName() async throws {
        let first = try await InspectorServer.start(port: 0)
        #expect(first.port != 0)
        #expect(first.url.hasPrefix("http://127.0.0.1:\(first.port)/?token="))
        do {
            let second = try await InspectorServer.start(port: first.port)
            await second.stop()
            Issue.record("a second server listened on the taken port \(first.port)")
        } catch {
            #expect(error.description.contains("port \(first.port)"))
            #expect(error.description.contains("taken"))
            #expect(error.description.contains("--inspect 0"))
        }
        await first.stop()
    }
}
