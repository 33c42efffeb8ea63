import Portolan

/// URLs and contexts the explorer derives from an app's route patterns where the app gives no
/// examples (docs/explore.md): for each pattern, a URL that matches it, with a sample value of
/// each parameter's type, and one that does not; the contexts those URLs give their nodes.
enum ExploreSamples {
    /// A URL matching `pattern` and one that does not, or nil where no sample matches (a validator
    /// none of the candidates satisfies).
    static func urls(for pattern: String, of node: NodeID, in graph: NavigationGraph) -> (matching: String?, other: String) {
        guard let parsed = try? RoutePattern(pattern) else { return (nil, "/explore-unmatched") }
        var matching: String?
        for candidate in 0..<candidates.count {
            let url = text(of: parsed, candidate: candidate)
            if let resolution = try? graph.resolve(url: url), resolution.node == node, resolution.pattern == pattern {
                matching = url
                break
            }
        }
        return (matching, unmatched(parsed))
    }

    /// Sample segments, tried in order until the pattern's validators accept one.
    private static let candidates = ["1", "a", "abc", "a-1", "A1", "x_1", "00000000-0000-4000-8000-000000000001"]

    /// A URL of the pattern's first path (its optional parts all taken).
    private static func text(of pattern: RoutePattern, candidate: Int) -> String {
        var segments: [String] = []
        for segment in pattern.segments {
            switch segment {
            case .constant(let text): segments.append(encoded(text))
            case .typed(_, let type): segments.append(sample(of: type))
            case .validated: segments.append(candidates[candidate])
            case .composite(let composite): segments.append(sample(of: composite, candidate: candidate))
            case .parameter: segments.append(candidate == 0 ? "a1" : candidates[candidate])
            case .anySegment: segments.append("x")
            case .rest(_, let atLeastOne): if atLeastOne { segments.append("x") }
            }
        }
        let slash = pattern.alternatives[0].endsWithSlash ? "/" : ""
        return origin(of: pattern) + "/" + segments.joined(separator: "/") + slash
    }

    private static func sample(of type: ParameterType) -> String {
        switch type {
        case .int: "1"
        case .uuid: candidates[candidates.count - 1]
        }
    }

    /// A segment of text and parameters, each parameter a sample without the text around it.
    private static func sample(of composite: CompositeSegment, candidate: Int) -> String {
        composite.pieces.map { piece in
            switch piece {
            case .text(let text): encoded(text)
            case .parameter(_, let type?): sample(of: type)
            case .parameter: "a1"
            }
        }.joined()
    }

    /// The pattern's URL with its first typed or validated parameter given a value of no type,
    /// or, for a pattern without one, a segment added that it does not have.
    private static func unmatched(_ pattern: RoutePattern) -> String {
        var segments: [String] = []
        var changed = false
        for segment in pattern.segments {
            switch segment {
            case .constant(let text): segments.append(encoded(text))
            case .typed, .validated:
                segments.append(changed ? "1" : "not-a-value!")
                changed = true
            case .composite(let composite): segments.append(sample(of: composite, candidate: 0))
            case .parameter: segments.append("a1")
            case .anySegment: segments.append("x")
            case .rest(_, let atLeastOne): if atLeastOne { segments.append("x") }
            }
        }
        if !changed {
            if pattern.segments.contains(where: { if case .rest = $0 { true } else { false } }) {
                segments.insert("explore-unmatched", at: 0)
            } else {
                segments.append("explore-unmatched")
            }
        }
        return origin(of: pattern) + "/" + segments.joined(separator: "/")
    }

    private static func origin(of pattern: RoutePattern) -> String {
        guard let scheme = pattern.scheme else { return "" }
        return scheme + "://" + (pattern.host ?? "")
    }

    /// A constant as a URL writes it: the bytes a URL path may hold as they are, the rest escaped.
    private static func encoded(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            let scalar = Unicode.Scalar(byte)
            if byte < 0x80, scalar.properties.isAlphabetic || ("0"..."9").contains(Character(scalar)) || "-._~".unicodeScalars.contains(scalar) {
                result.unicodeScalars.append(scalar)
            } else {
                result += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return result
    }
}

extension String {
    /// Zeros in front up to `length` characters: `0a`, a fingerprint's 16 hex digits.
    func leftPadded(to length: Int) -> String {
        count >= length ? self : String(repeating: "0", count: length - count) + self
    }
}
