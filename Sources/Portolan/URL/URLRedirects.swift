/// Rewrite rules applied to a URL before it is matched: `/old/:id` → `/books/:id`.
///
/// The first rule whose pattern matches rewrites the URL, and the rules run again on the result,
/// so rules may chain; a chain longer than the limit is a loop and fails as `invalid`. A template
/// names the pattern's parameters as `:name`; their values are percent-encoded into it. The query
/// and fragment of the original URL are kept unless the template has its own.
public struct URLRedirects: Sendable {
    private var rules: [(matcher: URLMatcher<String>, template: String)] = []

    public init() {}

    public var isEmpty: Bool { rules.isEmpty }

    public mutating func add(from pattern: String, to template: String) throws(URLRoutingError) {
        var matcher = URLMatcher<String>()
        try matcher.insert(pattern, value: template)
        rules.append((matcher, template))
    }

    /// The URL after every applicable rule.
    public func apply(to url: String, limit: Int) throws(RouteFailure) -> String {
        guard !rules.isEmpty else { return url }
        var current = url
        for _ in 0...limit {
            let parsed: ParsedURL
            do {
                parsed = try ParsedURL(parsing: current)
            } catch {
                throw RouteFailure(.invalid, "malformed URL '\(Excerpt.of(current))': \(error)")
            }
            guard let match = rules.lazy.compactMap({ $0.matcher.match(parsed) }).first else { return current }
            current = Self.fill(match.value, with: match.parameters) + Self.suffix(of: parsed, unlessIn: match.value)
        }
        throw RouteFailure(.invalid, "redirect rules loop: more than \(limit) rewrites, last to '\(Excerpt.of(current))'")
    }

    /// `template` with each `:name` replaced by the parameter's value, percent-encoded.
    static func fill(_ template: String, with parameters: Context) -> String {
        var result = ""
        var index = template.startIndex
        while index < template.endIndex {
            let character = template[index]
            index = template.index(after: index)
            guard character == ":" else {
                result.append(character)
                continue
            }
            let nameEnd = template[index...].firstIndex { !($0.isLetter || $0.isNumber || $0 == "_") } ?? template.endIndex
            let name = String(template[index..<nameEnd])
            if let value = parameters[name] {
                result += percentEncoded(value.plainText)
                index = nameEnd
            } else {
                result.append(character)
            }
        }
        return result
    }

    private static func suffix(of url: ParsedURL, unlessIn template: String) -> String {
        var suffix = ""
        if !template.contains("?"), !url.query.isEmpty {
            suffix += "?" + url.query.map { item in
                percentEncoded(item.name) + (item.value.map { "=" + percentEncoded($0) } ?? "")
            }.joined(separator: "&")
        }
        if !template.contains("#"), let fragment = url.fragment {
            suffix += "#" + percentEncoded(fragment)
        }
        return suffix
    }

    private static func percentEncoded(_ text: String) -> String {
        var encoded = ""
        for byte in text.utf8 {
            let isUnreserved = (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A)
                || (byte >= 0x61 && byte <= 0x7A) || byte == 0x2D || byte == 0x2E || byte == 0x5F || byte == 0x7E
            if isUnreserved {
                encoded.append(Character(Unicode.Scalar(byte)))
            } else {
                let hex = Array("0123456789ABCDEF")
                encoded += "%" + String(hex[Int(byte >> 4)]) + String(hex[Int(byte & 0xF)])
            }
        }
        return encoded
    }
}

extension ContextValue {
    /// The value as text with no quoting, for putting into a URL.
    var plainText: String {
        if case .string(let text) = self { return text }
        return description
    }
}
