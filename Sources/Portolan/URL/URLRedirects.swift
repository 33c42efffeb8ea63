/// The redirect rules applied to a URL before it is matched, in the order they were declared:
/// pattern rules (`/old/:id` → `/books/:id`) and function rules (a closure of the URL).
///
/// This is the one redirect loop. The first rule, in declaration order, that rewrites the URL
/// wins (a pattern rule whose pattern matches, a function rule that returns a URL), and every rule
/// runs again on the result, so rules of both kinds chain into each other. Precedence is the
/// order of declaration, not specificity: a function rule is opaque, so only its place in the
/// list can say when it runs (`portolan check` flags a pattern rule an earlier one hides). A rule
/// that gives back the URL it was given rewrites nothing. A chain that comes back to a URL it had
/// (a loop), or has more rewrites than the limit (`max_redirects`), fails as `invalid`.
///
/// A template names the pattern's parameters as `:name`; their values are percent-encoded into
/// it. The query and fragment of the original URL are kept unless the template has its own.
public struct URLRedirects: Sendable {
    /// A function rule: the URL it rewrites to, or nil to leave the URL to the next rule. It runs
    /// on the thread that resolves the URL; what it throws fails the resolution.
    public typealias Rewrite = @Sendable (String) throws(RouteFailure) -> String?

    private enum Rule: Sendable {
        case pattern(URLMatcher<String>)
        case function(Rewrite)
    }

    private var rules: [Rule] = []

    public init() {}

    public var isEmpty: Bool { rules.isEmpty }

    /// Adds a pattern rule after those declared before it.
    public mutating func add(from pattern: String, to template: String) throws(URLRoutingError) {
        var builder = URLMatcherBuilder<String>()
        try builder.insert(pattern, value: template)
        rules.append(.pattern(builder.build()))
    }

    /// Adds a function rule after those declared before it.
    public mutating func add(_ rewrite: @escaping Rewrite) {
        rules.append(.function(rewrite))
    }

    /// The URL after every applicable rule, as text.
    public func apply(to url: String, limit: Int) throws(RouteFailure) -> String {
        try apply(to: url, read: nil, limit: limit).text
    }

    /// The URL after every applicable rule, and what reading it gave, when a rule or the caller
    /// read it: each URL of the chain is read at most once, and only when a pattern rule must
    /// match it (a function rule takes the text). A URL that does not read matches no pattern: a
    /// function rule may still rewrite it, and it fails as malformed only if it is the last.
    func apply(to url: String, read: ParsedURL.Reading?, limit: Int) throws(RouteFailure) -> (text: String, read: ParsedURL.Reading?) {
        var chain = [url]
        var reading = read
        while let current = chain.last, let rewrite = try firstRewrite(of: current, reading: &reading) {
            chain.append(rewrite)
            reading = nil
            // A URL is its own place: the loop's locations are written as the chain shows them.
            let shown = { (url: String) in "'\(Excerpt.of(url))'" }
            let unsettled = RouteFailure.unsettled(
                chain, limit: limit, words: ("redirect rules loop", "too many redirect rule rewrites"),
                isSame: ==, shown: shown, place: shown)
            if let unsettled { throw unsettled }
        }
        return (chain.last ?? url, reading)
    }

    /// What the first rule that rewrites `url` makes of it, or nil when none does. A rule that
    /// gives back the URL it was given rewrites nothing: the next rule is asked.
    private func firstRewrite(of url: String, reading: inout ParsedURL.Reading?) throws(RouteFailure) -> String? {
        for rule in rules {
            switch rule {
            case .function(let rewrite):
                if let rewritten = try rewrite(url), rewritten != url { return rewritten }
            case .pattern(let matcher):
                let read = reading ?? ParsedURL.reading(url)
                reading = read
                if case .success(let parsed) = read, let match = matcher.match(parsed) {
                    let rewritten = Self.fill(match.value, with: match.parameters) + Self.suffix(of: parsed, unlessIn: match.value)
                    if rewritten != url { return rewritten }
                }
            }
        }
        return nil
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
