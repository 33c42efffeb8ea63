/// Who may read the inspector: only the user's own page, opened from the URL the REPL printed.
///
/// The tree, the events and the route show every context value, tokens included, and any web page
/// the user visits can reach 127.0.0.1. So every request must pass three checks, in this order:
/// - **Host** is the inspector's own, `127.0.0.1:PORT` or `localhost:PORT`, sent once. A page
///   that rebinds its own name to 127.0.0.1 (DNS rebinding) sends its own name here.
/// - **Origin**, when sent, is the inspector's own, `http://127.0.0.1:PORT` or
///   `http://localhost:PORT`. A browser sends Origin with every WebSocket handshake and every
///   cross-origin fetch, so `/live` requires it; it leaves it out only of same-origin GETs and
///   navigations (the page itself, its `/state`), and of cross-origin no-cors loads (an `<img>` or
///   `<script>` of another page), whose answer that page cannot read and which lack the token.
/// - **The token** of the URL, 128 bits from the system's random generator, fresh for each
///   server, compared in constant time. Only the user has it: the REPL prints it, and nothing else
///   writes it down. It guards whatever slips past the two checks above: another program or
///   another user of the machine, which sends any Host and Origin it likes.
struct InspectorAccess: Sendable {
    let port: UInt16
    let token: String

    init(port: UInt16, token: String = Self.freshToken()) {
        self.port = port
        self.token = token
    }

    /// 128 bits from the system's CSPRNG (getrandom on Linux), as 32 hex digits.
    static func freshToken() -> String {
        var generator = SystemRandomNumberGenerator()
        let words = [generator.next() as UInt64, generator.next() as UInt64]
        return words.map { word in
            let hex = String(word, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }

    /// Why `request` is refused (a short reason for the 403, that tells nothing of the state), or
    /// nil when it may go on. `isWebSocket`: the request asks for `/live`, where Origin is required.
    func refusal(of request: InspectorRequest, isWebSocket: Bool) -> String? {
        guard request.count(of: "host") == 1, let host = request.field("host"), isOwn(host: host) else {
            return "not this inspector's host"
        }
        switch request.count(of: "origin") {
        case 0 where !isWebSocket: break
        case 1 where isOwn(origin: request.field("origin") ?? ""): break
        default: return "not this inspector's page"
        }
        guard let given = request.token, Self.isSame(Array(given.utf8), Array(token.utf8)) else {
            return "the inspector's address needs the token the REPL printed"
        }
        return nil
    }

    private func isOwn(host: String) -> Bool {
        ["127.0.0.1:\(port)", "localhost:\(port)"].contains(host.lowercased())
    }

    private func isOwn(origin: String) -> Bool {
        ["http://127.0.0.1:\(port)", "http://localhost:\(port)"].contains(origin.lowercased())
    }

    /// Whether `given` is `expected`, in a time that does not depend on where they differ (the
    /// length is no secret: every token has 32 digits).
    static func isSame(_ given: [UInt8], _ expected: [UInt8]) -> Bool {
        guard given.count == expected.count else { return false }
        var difference: UInt8 = 0
        for index in expected.indices { difference |= given[index] ^ expected[index] }
        return difference == 0
    }
}
