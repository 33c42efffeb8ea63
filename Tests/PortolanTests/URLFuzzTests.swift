import Portolan
import TestSupport
import Testing

/// Bounded fuzzing of the URL layer, deterministic (seeded) so a failure reproduces from its index.
/// The long run (a million inputs and more) is `Benchmarks/Sources/MatcherFuzz`.
@Suite struct URLFuzzTests {
    /// 50,000 hostile URLs (random bytes, mixes of `/ % ? # & =` and escapes valid or not, schemes,
    /// control characters, inputs past the caps): each one parses and matches, or fails with a typed
    /// error that has a message; never a crash, and what is returned is well formed.
    @Test func hostileURLsFailTypedOrMatchWellFormed() throws {
        var random = SeededRandom(seed: 0x5EED_0004)
        let matcher = try Self.fuzzMatcher()
        var outcomes = (matched: 0, unmatched: 0, refused: 0)
        for index in 0..<50_000 {
            let url = HostileURL.make(&random)
            do {
                let parsed = try ParsedURL(parsing: url)
                #expect(parsed.routingSegments.allSatisfy { !$0.isEmpty }, "input \(index)")
                #expect(parsed.pathSegments.count <= URLLimits.maximumSegments, "input \(index)")
                if let match = matcher.match(parsed) {
                    outcomes.matched += 1
                    // A pattern with optional parts captures the names of the path that matched.
                    let named = Set(match.pattern.parameterNames), captured = Set(match.parameters.keys)
                    let exact = match.pattern.alternatives.count == 1 ? captured == named : captured.isSubset(of: named)
                    #expect(exact, "input \(index): \(url.debugDescription)")
                    #expect(match.query == parsed.query && match.fragment == parsed.fragment)
                } else {
                    outcomes.unmatched += 1
                }
            } catch {
                outcomes.refused += 1
                #expect(!error.description.isEmpty)
                #expect(throws: error, "input \(index) must fail the same way through the matcher") {
                    try matcher.match(url)
                }
            }
        }
        // The generator must exercise all three outcomes, or it tests little.
        #expect(outcomes.matched > 1_000 && outcomes.unmatched > 1_000 && outcomes.refused > 1_000, "\(outcomes)")
    }

    /// Random pattern text parses or fails typed, and a parsed pattern registers or is refused as
    /// ambiguous; never a crash.
    @Test func hostilePatternsParseOrFailTyped() {
        var random = SeededRandom(seed: 0xFA77_E412)
        var matcher = URLMatcherBuilder<Int>()
        for index in 0..<20_000 {
            let text = HostileURL.pattern(&random)
            do {
                let pattern = try RoutePattern(text)
                do {
                    try matcher.insert(pattern, value: index)
                } catch {
                    if !HostileURL.isExpectedRefusal(error) { Issue.record("insert of '\(text)' failed with \(error)") }
                }
            } catch {
                #expect(!error.description.isEmpty)
            }
        }
    }

    /// On random pattern sets (ambiguous ones refused), the trie agrees with a brute-force oracle
    /// written from the issue's rule: of all patterns matching the URL, the one whose per-segment
    /// specificity is lexicographically best; there is exactly one best.
    @Test func trieAgreesWithBruteForceSpecificity() throws {
        var random = SeededRandom(seed: 0xB0B_CAFE)
        var checked = 0
        for _ in 0..<1_500 {
            var matcher = URLMatcherBuilder<Int>()
            var accepted: [RoutePattern] = []
            for _ in 0..<random.int(in: 1...12) {
                let pattern = try RoutePattern(URLPrecedenceOracle.randomPattern(&random))
                if (try? matcher.insert(pattern, value: accepted.count)) != nil { accepted.append(pattern) }
            }
            for _ in 0..<12 {
                let segments = (0..<random.int(in: 0...5)).map { _ in URLPrecedenceOracle.urlSegments[random.int(in: 0...URLPrecedenceOracle.urlSegments.count - 1)] }
                let url = "/" + segments.joined(separator: "/")
                let expected = URLPrecedenceOracle.best(accepted, for: segments)
                #expect(expected.tie == false, "tie for \(url) among \(accepted.map(\.text))")
                let actual = try matcher.build().match(url)
                #expect(actual?.value == expected.index, "\(url) with \(accepted.map(\.text))")
                checked += 1
            }
        }
        #expect(checked == 18_000)
    }

    static func fuzzMatcher() throws -> URLMatcher<Int> {
        var matcher = URLMatcherBuilder<Int>()
        for (index, pattern) in HostileURL.patterns.enumerated() { try matcher.insert(pattern, value: index) }
        return matcher.build()
    }
}

/// A brute-force reference for precedence, independent of the trie.
enum URLPrecedenceOracle {
    static let patternSegments = ["a", "b", "1", ":p<int>", ":p{[a-b]+}", ":p{b|c}", ":p", "*", "**r", ":p.b", ":p+"]
    static let urlSegments = ["a", "b", "c", "1", "-2", "ab", "%61", "x", "%2F", "x.b", "a.b.b", ".b"]

    static func randomPattern(_ random: inout SeededRandom) -> String {
        let count = random.int(in: 0...4)
        var segments: [String] = []
        for index in 0..<count {
            var segment = patternSegments[random.int(in: 0...patternSegments.count - 1)]
            if (segment.hasPrefix("**") || segment.hasSuffix("+")) && index != count - 1 { segment = "*" }
            // Unique names: p0, p1, ...
            if segment.hasPrefix(":p") {
                segment = ":p\(index)" + segment.dropFirst(2)
            } else if segment == "**r" {
                segment = "**r\(index)"
            }
            segments.append(segment)
        }
        return "/" + segments.joined(separator: "/")
    }

    /// The index of the best pattern for `rawSegments` (percent-decoded here), and whether another ties with it.
    static func best(_ patterns: [RoutePattern], for rawSegments: [String]) -> (index: Int?, tie: Bool) {
        let segments = rawSegments.map { $0 == "%61" ? "a" : $0 == "%2F" ? "/" : $0 }
        var best: (index: Int, ranks: [Int])?
        var tie = false
        for (index, pattern) in patterns.enumerated() {
            guard let ranks = ranks(pattern, segments) else { continue }
            if let current = best {
                if ranks.lexicographicallyPrecedes(current.ranks) {
                    best = (index, ranks)
                    tie = false
                } else if ranks == current.ranks {
                    tie = true
                }
            } else {
                best = (index, ranks)
            }
        }
        return (best?.index, tie)
    }

    /// Per-position specificity (0 constant … 4 `**`) if `pattern` matches, else `nil`. A pattern
    /// that ends exactly with the URL gets -1 where a `**` would match nothing, so it wins there.
    static func ranks(_ pattern: RoutePattern, _ segments: [String]) -> [Int]? {
        var ranks: [Int] = []
        for (index, segment) in pattern.segments.enumerated() {
            if case .rest(_, let atLeastOne) = segment { return !atLeastOne || index < segments.count ? ranks + [4] : nil }
            guard index < segments.count else { return nil }
            let value = segments[index]
            switch segment {
            case .constant(let text):
                guard text == value else { return nil }
                ranks.append(0)
            case .typed:
                guard Int64(value) != nil, !value.hasPrefix("+") else { return nil }
                ranks.append(1)
            case .validated(_, let validator):
                let ok: Bool
                switch validator {
                case "[a-b]+": ok = !value.isEmpty && value.allSatisfy { $0 == "a" || $0 == "b" }
                case "b|c": ok = value == "b" || value == "c"
                default: ok = false
                }
                guard ok else { return nil }
                ranks.append(1)
            case .parameter: ranks.append(2)
            case .anySegment: ranks.append(3)
            case .composite:
                // `:p.b`: text ending with `.b` after at least a character.
                guard value.count > 2, value.hasSuffix(".b") else { return nil }
                ranks.append(1)
            case .rest: return nil
            }
        }
        return pattern.segments.count == segments.count ? ranks + [-1] : nil
    }
}
