import Foundation
@testable import PortolanInspector
import Testing

/// What a client can cost the inspector: the page's socket takes no messages and no large frames,
/// and idle or surplus sockets never lock the user's own page out.
@Suite struct InspectorSlotTests {
    /// The real `portolan-inspector`, as the REPL starts it, and the token from its URL.
    private func serve() async throws -> (InspectorUnderTest, String) {
        let server = try await InspectorUnderTest.start()
        return (server, server.token)
    }

    /// A WebSocket of the user's own page, past its handshake and its first state.
    private func openPage(_ server: InspectorUnderTest, token: String) async throws -> InspectorTestClient {
        let client = try #require(InspectorTestClient(port: server.port))
        await client.get("/live?token=\(token)", headers: ClientFrames.upgradeHeaders(
            host: "127.0.0.1:\(server.port)", origin: "http://127.0.0.1:\(server.port)"))
        let head = try #require(await client.readHead())
        try #require(head.hasPrefix("HTTP/1.1 101"), "\(head)")
        let first = try #require(await client.readFrame())
        try #require(first.opcode == 1)
        return client
    }

    /// The close frame's code, when the server's next frame is a close.
    private func closeCode(_ client: InspectorTestClient) async -> Int? {
        guard let frame = await client.readFrame(), frame.opcode == 8, frame.payload.count >= 2 else { return nil }
        return Int(frame.payload[0]) << 8 | Int(frame.payload[1])
    }

    @Test(arguments: [UInt8(1), 2, 0])
    func aDataFrameFromThePageClosesItsSocket(opcode: UInt8) async throws {
        let (server, token) = try await serve()
        let page = try await openPage(server, token: token)
        await page.send(ClientFrames.masked(opcode: opcode, payload: Array("hello".utf8)))
        #expect(await closeCode(page) == 1008, "policy violation: the page sends no messages")
        #expect(await page.isClosedByServer())
        await server.stop()
    }

    @Test func anUnfinishedHugeFrameIsRefusedOnItsHeader() async throws {
        let (server, token) = try await serve()
        let page = try await openPage(server, token: token)
        // 800 MiB announced, 64 KiB sent, the rest never: the server must not wait for it.
        await page.send(ClientFrames.header(opcode: 2, length: 800 << 20, fin: false))
        await page.send([UInt8](repeating: 0x41, count: 64 << 10))
        #expect(await page.isClosedByServer())
        await server.stop()
    }

    @Test func aControlFrameOverItsLimitIsAProtocolError() async throws {
        let (server, token) = try await serve()
        let page = try await openPage(server, token: token)
        await page.send(ClientFrames.masked(opcode: 9, payload: [UInt8](repeating: 1, count: 200)))
        #expect(await closeCode(page) == 1002)
        #expect(await page.isClosedByServer())
        await server.stop()
    }

    @Test func aPingAndAPongAreIgnoredAndAClosingPageIsLetGo() async throws {
        let (server, token) = try await serve()
        let page = try await openPage(server, token: token)
        await page.send(ClientFrames.masked(opcode: 9, payload: [1, 2]))
        await page.send(ClientFrames.masked(opcode: 10, payload: []))
        server.publish("{\"sequence\":2}")
        let next = try #require(await page.readFrame())
        #expect(next.opcode == 1, "still open after a ping and a pong")
        await page.send(ClientFrames.masked(opcode: 8, payload: [0x03, 0xE8]))
        #expect(await closeCode(page) == 1000)
        #expect(await page.isClosedByServer())
        await server.stop()
    }

    @Test func socketsThatNeverSendARequestAreClosedAndNeverLockThePageOut() async throws {
        let (server, token) = try await serve()
        // More idle sockets than the server keeps, one with half a request head.
        let idle = try (0..<100).map { _ in try #require(InspectorTestClient(port: server.port)) }
        await idle[0].send("GET /?token=\(token) HTTP/1.1\r\nHost: 127.0.0.1:")
        let page = try #require(InspectorTestClient(port: server.port))
        await page.get("/?token=\(token)", headers: [("Host", "127.0.0.1:\(server.port)")])
        let response = String(decoding: try #require(await page.readToEnd()), as: UTF8.self)
        #expect(response.hasPrefix("HTTP/1.1 200"))
        #expect(await idle[0].isClosedByServer(), "half a request head is not held")
        #expect(await idle[99].isClosedByServer(), "an idle socket is closed after a few seconds")
        await server.stop()
    }

    @Test func theNewestPageTakesTheOldestsPlaceWhenAllAreTaken() async throws {
        let (server, token) = try await serve()
        var pages: [InspectorTestClient] = []
        for _ in 0...InspectorFeed.clientLimit { pages.append(try await openPage(server, token: token)) }
        #expect(pages.count == InspectorFeed.clientLimit + 1)
        #expect(await closeCode(pages[0]) == 1008, "the oldest page gives way")
        server.publish("{\"sequence\":3}")
        let newest = try #require(await pages.last?.readFrame())
        #expect(String(decoding: newest.payload, as: UTF8.self) == "{\"sequence\":3}")
        await server.stop()
    }
}
