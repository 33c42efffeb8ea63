import Foundation

/// An answer of the inspector's: a status, a type and a body, then the connection closes.
struct InspectorResponse: Sendable {
    let status: Int
    let contentType: String
    let body: Data

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

    static let page = InspectorResponse(
        status: 200, contentType: "text/html; charset=utf-8", body: Data(PackageResources.InspectorPage_html))

    private static let reasons = [200: "OK", 400: "Bad Request", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed"]

    /// The whole answer. Nothing is cached or sniffed, and the page's address (its token) is never
    /// sent on as a referrer.
    var bytes: Data {
        let head = "HTTP/1.1 \(status) \(Self.reasons[status] ?? "Error")\r\n"
            + "Content-Type: \(contentType)\r\nContent-Length: \(body.count)\r\nCache-Control: no-store\r\n"
            + "X-Content-Type-Options: nosniff\r\nReferrer-Policy: no-referrer\r\nConnection: close\r\n\r\n"
        return Data(head.utf8) + body
    }
}
