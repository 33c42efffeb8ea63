/// One request to the inspector, as its head says: the method, the path, the `token` of the query,
/// and the header fields. The inspector reads no request bodies: it answers only GETs.
struct InspectorRequest: Sendable {
    /// The longest request head read: a browser's GET with its cookies-free headers takes well
    /// under 2 KiB.
    static let headLimit = 8192

    let method: String
    let path: String
    /// The query's `token` parameter, as sent (the token is hex: nothing to decode).
    let token: String?
    /// Each header field's values, by lowercased name, in the order sent.
    private let fields: [String: [String]]

    /// The request whose head is `bytes` (up to its blank line); nil when it is not HTTP/1.x.
    init?(head bytes: [UInt8]) {
        // A head is ASCII; anything else in it (a name, a host) matches none of ours anyway.
        let text = String(decoding: bytes, as: UTF8.self)
        var lines = text.split(separator: "\r\n", omittingEmptySubsequences: true)
        guard !lines.isEmpty else { return nil }
        let requestLine = lines.removeFirst().split(separator: " ", omittingEmptySubsequences: false)
        guard requestLine.count == 3, requestLine[2].hasPrefix("HTTP/1.") else { return nil }
        method = String(requestLine[0])
        let target = requestLine[1].split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        path = String(target[0])
        token = target.count > 1 ? Self.token(inQuery: target[1]) : nil
        var fields: [String: [String]] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { return nil }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: " \t")
            fields[name, default: []].append(value)
        }
        self.fields = fields
    }

    /// The one value of the header field `name`; nil when it is absent or sent more than once.
    func field(_ name: String) -> String? {
        guard let values = fields[name], values.count == 1 else { return nil }
        return values[0]
    }

    /// How many times the header field `name` was sent.
    func count(of name: String) -> Int {
        fields[name]?.count ?? 0
    }

    private static func token(inQuery query: Substring) -> String? {
        for parameter in query.split(separator: "&") where parameter.hasPrefix("token=") {
            return String(parameter.dropFirst("token=".count))
        }
        return nil
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in blanks: String) -> String {
        String(drop { blanks.contains($0) }.reversed().drop { blanks.contains($0) }.reversed())
    }
}
