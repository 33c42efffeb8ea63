import Foundation
import PortolanInspector
import Testing

/// Who may read the inspector: only the user's own page, which has the URL the REPL printed.
/// Against the real `portolan-inspector` on an ephemeral port of 127.0.0.1, with a client at the
/// byte level.
@Suite struct InspectorAccessTests {
    /// The server, the token from its URL, and its own host and origin.
    private struct Served {
        let server: InspectorUnderTest
        var token: String { server.token }
        var port: UInt16 { server.port }
        var host: String { "127.0.0.1:\(port)" }
        var origin: String { "http://127.0.0.1:\(port)" }

        func client() throws -> InspectorTestClient {
            try #require(InspectorTestClient(port: port))
        }

        /// The status code and body of a GET of `target`.
        func get(_ target: String, headers: [(String, String)]) async throws -> (status: Int, body: String) {
            let client = try client()
            await client.get(target, headers: headers)
            let response = String(decoding: try #require(await client.readToEnd()), as: UTF8.self)
            let statusLine = response.prefix { $0 != "\r" }.split(separator: " ")
            try #require(statusLine.count >= 2, "a status line: \(response.prefix(200))")
            let status = try #require(Int(statusLine[1]))
            let body = response.range(of: "\r\n\r\n").map { String(response[$0.upperBound...]) } ?? ""
            return (status, body)
        }
    }

    private func serve() async throws -> Served {
        Served(server: try await InspectorUnderTest.start())
    }

    @Test func theURLsTokenIsLongAndFreshForEachServer() async throws {
        let first = try await serve()
        let second = try await serve()
        #expect(first.token.count >= 32, "128 bits at least, in hex")
        #expect(first.token != second.token)
        await first.server.stop()
        await second.server.stop()
    }

    @Test func theOwnHostWithTheTokenGetsThePageAndTheState() async throws {
        let served = try await serve()
        let page = try await served.get("/?token=\(served.token)", headers: [("Host", served.host)])
        #expect(page.status == 200)
        #expect(page.body.contains("Portolan inspector"))
        let local = try await served.get("/?token=\(served.token)", headers: [("Host", "localhost:\(served.port)")])
        #expect(local.status == 200)
        let state = try await served.get("/state?token=\(served.token)", headers: [("Host", served.host), ("Origin", served.origin)])
        #expect(state.status == 200)
        #expect(state.body.hasPrefix("{"))
        await served.server.stop()
    }

    @Test(arguments: ["evil.example:PORT", "127.0.0.1:1", "127.0.0.1", "localhost.evil.example:PORT", ""])
    func aForeignHostIsRefusedEvenWithTheToken(host: String) async throws {
        let served = try await serve()
        let headers = host.isEmpty ? [] : [("Host", host.replacingOccurrences(of: "PORT", with: String(served.port)))]
        for target in ["/", "/state", "/live"] {
            let answer = try await served.get("\(target)?token=\(served.token)", headers: headers)
            #expect(answer.status == 403, "\(target) with Host \(host)")
            #expect(!answer.body.contains("sequence") && !answer.body.contains("<html"))
        }
        await served.server.stop()
    }

    @Test func twoHostHeadersAreRefused() async throws {
        let served = try await serve()
        let answer = try await served.get("/state?token=\(served.token)", headers: [("Host", served.host), ("Host", "evil.example")])
        #expect(answer.status == 403)
        await served.server.stop()
    }

    @Test func aRequestWithoutTheRightTokenLearnsNothing() async throws {
        let served = try await serve()
        let wrong = String(served.token.reversed())
        let sameLength = String(repeating: "0", count: served.token.count)
        for target in ["/", "/state", "/live", "/?token=", "/?token=\(wrong)", "/state?token=\(sameLength)",
                       "/state?token=\(served.token)x", "/favicon.ico"] {
            let answer = try await served.get(target, headers: [("Host", served.host)])
            #expect(answer.status == 403 || answer.status == 404, "\(target): \(answer.status)")
            #expect(!answer.body.contains("sequence") && !answer.body.contains("<html"), "\(target)")
        }
        await served.server.stop()
    }

    @Test(arguments: ["http://evil.example", "null", "http://127.0.0.1:1", "https://127.0.0.1:PORT", nil])
    func theWebSocketNeedsTheInspectorsOwnOrigin(origin: String?) async throws {
        let served = try await serve()
        let client = try served.client()
        let shown = origin?.replacingOccurrences(of: "PORT", with: String(served.port))
        await client.get("/live?token=\(served.token)", headers: ClientFrames.upgradeHeaders(host: served.host, origin: shown))
        let head = try #require(await client.readHead())
        #expect(head.hasPrefix("HTTP/1.1 403"), "Origin \(shown ?? "absent"): \(head)")
        await served.server.stop()
    }

    @Test func aCrossOriginFetchOfTheStateIsRefused() async throws {
        let served = try await serve()
        let answer = try await served.get("/state?token=\(served.token)", headers: [("Host", served.host), ("Origin", "http://evil.example")])
        #expect(answer.status == 403)
        await served.server.stop()
    }

    @Test(arguments: ["http://127.0.0.1:PORT", "http://localhost:PORT"])
    func theOwnPagesWebSocketGetsTheState(origin: String) async throws {
        let served = try await serve()
        served.server.publish("{\"sequence\":7}")
        let client = try served.client()
        let own = origin.replacingOccurrences(of: "PORT", with: String(served.port))
        await client.get("/live?token=\(served.token)", headers: ClientFrames.upgradeHeaders(host: served.host, origin: own))
        let head = try #require(await client.readHead())
        #expect(head.hasPrefix("HTTP/1.1 101"), "\(head)")
        // RFC 6455's own example key and its answer.
        #expect(head.contains("Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo="))
        // The process reads the state in its own time: the page's first frame may be the state before it.
        var texts: [String] = []
        while texts.count < 2, texts.last != "{\"sequence\":7}", let frame = await client.readFrame() {
            #expect(frame.opcode == 1)
            texts.append(String(decoding: frame.payload, as: UTF8.self))
        }
        #expect(texts.last == "{\"sequence\":7}", "\(texts)")
        await served.server.stop()
    }
}
