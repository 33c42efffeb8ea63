import TestSupport

/// Inputs a hostile or careless caller could send (the same recipe as Tests/PortolanTests/URLFuzzTests.swift).
enum FuzzInputs {
    static let registered = [
        "/", "/a", "/a/b", "/a/:x", "/a/:x<int>", "/a/:x<uuid>", "/a/:x{[a-z]+}/b", "/a/*/c", "/a/**rest",
        "/b/:p/:q", "/%2F/:x", "https://h.com/a/:id", "myapp://a/:id<int>", "/c/**", "/é/:x{[^/]+}",
        // Constants alone, which match(String) finds by a hash of the whole path.
        "/a/b/c", "/A/c", "/a%2Fb", "/%3F", "/b", "/a/1", "/..", "/a b",
    ]

    static let tokens = [
        "/", "/", "/", "%", "?", "#", "&", "=", "a", "b", "1", "42", "-", ".", "..", "%2F", "%41", "%zz", "%F", "%",
        "%C3%A9", "%FF", "%C3", "%00", "%7F", ":", "//", "myapp://", "https://h.com", "HTTPS://H.COM", "1a://",
        " ", "é", "\n", "\u{7F}", "+", "*", "**", "a", "b", "c", "/a", "/a/b", "/a/1",
        "3f2504e0-4f89-11d3-9a0c-0305e82c3301",
    ]

    static func url(_ random: inout SeededRandom) -> String {
        switch random.int(in: 0...9) {
        case 0:
            let bytes = (0..<random.int(in: 0...64)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            return String(decoding: bytes, as: UTF8.self)
        case 1:
            let token = tokens[random.int(in: 0...tokens.count - 1)]
            return String(repeating: token, count: random.int(in: 100...(4_200 / max(1, token.utf8.count))))
        case 2:
            return String(repeating: "/a", count: random.int(in: 250...262))
        default:
            return (0..<random.int(in: 0...24)).map { _ in tokens[random.int(in: 0...tokens.count - 1)] }.joined()
        }
    }

    static let patternTokens = [
        "/", "/", ":", ":x", ":y", "<int>", "<uuid>", "<", ">", "{", "}", "[a-z]", "+", "*", "**", "**r", "(", ")",
        "|", "\\", "a", "b", "%2F", "%", "{3}", "{1,2}", "[^/]", "https://", "h.com", "?", "é", "\u{1}",
    ]

    static func pattern(_ random: inout SeededRandom) -> String {
        (0..<random.int(in: 0...16)).map { _ in patternTokens[random.int(in: 0...patternTokens.count - 1)] }.joined()
    }
}
