import Crypto
import Foundation

/// An answer of the inspector's: a status, a type and a body, then the connection closes.
struct InspectorResponse: Sendable {
    let status: Int
    let contentType: String
    let body: Data
    /// Headers of this answer's own (the page's Content-Security-Policy).
    var extraHeaders = ""

    init(status: Int, text: String) {
        self.init(status: status, contentType: "text/plain; charset=utf-8", body: Data((text + "\n").utf8))
    }

    init(status: Int, json: String) {
        self.init(status: status, contentType: "application/json; charset=utf-8", body: Data(json.utf8))
    }

    private init(status: Int, contentType: String, body: Data) {
        self.status = status
        self.contentType = contentType
        self.body = body
    }

    static let page: InspectorResponse = {
        var page = InspectorResponse(
            status: 200, contentType: "text/html; charset=utf-8", body: Data(PackageResources.InspectorPage_html))
        page.extraHeaders = "Content-Security-Policy: \(pagePolicy(PackageResources.InspectorPage_html))\r\n"
        return page
    }()

    /// What the page may run and reach: its own inline script (by its SHA-256) and style, its own
    /// origin's WebSocket, and nothing else. The page shows text and SVG an app supplies; were any of
    /// it to slip through unescaped, an injected `onerror=` or `<script>` still could not run.
    static func pagePolicy(_ page: [UInt8]) -> String {
        let text = String(decoding: page, as: UTF8.self)
        var script = "'none'"
        if let open = text.range(of: "<script>"), let close = text.range(of: "</script>", range: open.upperBound..<text.endIndex) {
            let digest = SHA256.hash(data: Array(text[open.upperBound..<close.lowerBound].utf8))
            script = "'sha256-\(Data(digest).base64EncodedString())'"
        }
        return "default-src 'none'; script-src \(script); style-src 'unsafe-inline'; img-src 'self' data:; "
            + "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    }

    private static let reasons = [200: "OK", 400: "Bad Request", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed"]

    /// The whole answer. Nothing is cached or sniffed, and the page's address (its token) is never
    /// sent on as a referrer.
    var bytes: Data {
        let head = "HTTP/1.1 \(status) \(Self.reasons[status] ?? "Error")\r\n"
            + "Content-Type: \(contentType)\r\nContent-Length: \(body.count)\r\nCache-Control: no-store\r\n"
            + "X-Content-Type-Options: nosniff\r\nReferrer-Policy: no-referrer\r\n" + extraHeaders + "Connection: close\r\n\r\n"
        return Data(head.utf8) + body
    }
}
