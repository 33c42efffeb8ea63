import Portolan

/// Inputs a hostile or careless caller could send to the URL layer: the one recipe of the URL fuzz
/// tests (Tests/PortolanTests/URLFuzzTests.swift) and of the long fuzz run
/// (Benchmarks/Sources/MatcherFuzz).
public enum HostileURL {
    /// Whether a pattern that parses may be refused when registered with this error: it clashes
    /// with one registered before, its own optional parts clash, or one of its segments is too
    /// complex to prove apart from another. Anything else is a bug.
    public static func isExpectedRefusal(_ error: URLRoutingError) -> Bool {
        switch error {
        case .ambiguous, .ambiguousAlternatives, .segmentTooComplex: true
        default: false
        }
    }

    /// Patterns of every form, which register together without ambiguity: what hostile URLs are
    /// matched against.
    public static let patterns = [
        "/", "/a", "/a/b", "/a/:x", "/a/:x<int>", "/a/:x<uuid>", "/a/:x{[a-z]+}/b", "/a/*/c", "/a/**rest",
        "/b/:p/:q", "/%2F/:x", "https://h.com/a/:id", "myapp://a/:id<int>", "/c/**", "/é/:x{[^/]+}",
        "/f/:n.:e", "/f/v-:v<int>", "/g/**r/z", "/h/:t+", "/o{/:s}", "/:a?/b",
    ]

    public static let tokens = [
        "/", "/", "/", "%", "?", "#", "&", "=", "a", "b", "1", "42", "-", ".", "..", "%2F", "%41", "%zz", "%F", "%",
        "%C3%A9", "%FF", "%C3", "%00", "%7F", ":", "//", "myapp://", "https://h.com", "HTTPS://H.COM", "1a://",
        " ", "é", "\n", "\u{7F}", "+", "*", "**", "a", "b", "c", "/a", "/a/b", "/a/1",
        "3f2504e0-4f89-11d3-9a0c-0305e82c3301",
    ]

    public static func make(_ random: inout SeededRandom) -> String {
        switch random.int(in: 0...9) {
        case 0:
            // Random bytes; invalid UTF-8 becomes U+FFFD in the String, as it would from any decoder.
            let bytes = (0..<random.int(in: 0...64)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            return String(decoding: bytes, as: UTF8.self)
        case 1:
            // Long inputs around and past the caps.
            let token = tokens[random.int(in: 0...tokens.count - 1)]
            let times = random.int(in: 100...(4_200 / max(1, token.utf8.count)))
            return String(repeating: token, count: times)
        case 2:
            return String(repeating: "/a", count: random.int(in: 250...262))
        default:
            return (0..<random.int(in: 0...24)).map { _ in tokens[random.int(in: 0...tokens.count - 1)] }.joined()
        }
    }

    public static let patternTokens = [
        "/", "/", ":", ":x", ":y", "<int>", "<uuid>", "<", ">", "{", "}", "[a-z]", "+", "*", "**", "**r", "(", ")",
        "|", "\\", "a", "b", "%2F", "%", "{3}", "{1,2}", "[^/]", "https://", "h.com", "?", "é", "\u{1}",
        // The forms of issue 35 §3: text with parameters, groups, optional and repeated parts.
        ".", "-", ".:e", "{/", "{/:s}", "{.:e}", ":z?", ":r+", ":r*", "/:q?",
    ]

    public static func pattern(_ random: inout SeededRandom) -> String {
        (0..<random.int(in: 0...16)).map { _ in patternTokens[random.int(in: 0...patternTokens.count - 1)] }.joined()
    }
}

