@testable import Portolan
import Testing
import TestSupport

/// Route pattern parsing, its typed errors, and the matcher's ambiguity rule.
@Suite struct URLPatternTests {
    // MARK: Parsing

    @Test func parsesEverySegmentKind() throws {
        let pattern = try RoutePattern("/books/:id<int>/:slug{[a-z]+}/:name/*/**rest")
        #expect(pattern.segments == [
            .constant("books"), .typed(name: "id", type: .int), .validated(name: "slug", validator: "[a-z]+"),
            .parameter(name: "name"), .anySegment, .rest(name: "rest", atLeastOne: false),
        ])
        #expect(pattern.parameterNames == ["id", "slug", "name", "rest"])
        #expect(pattern.scheme == nil && pattern.host == nil)
    }

    @Test func parsesSchemeAndHost() throws {
        let pattern = try RoutePattern("HTTPS://Example.COM/books/:id")
        #expect(pattern.scheme == "https")
        #expect(pattern.host == "example.com")
        #expect(pattern.segments == [.constant("books"), .parameter(name: "id")])
        #expect(try RoutePattern("myapp://home").segments.isEmpty)
    }

    @Test func slashesInsideValidatorsDoNotSplit() throws {
        let pattern = try RoutePattern("/d/:path{[^/]+/x}/end")
        #expect(pattern.segments == [.constant("d"), .validated(name: "path", validator: "[^/]+/x"), .constant("end")])
        #expect(try RoutePattern("/c/:code{[A-Z]{3}}").segments.last == .validated(name: "code", validator: "[A-Z]{3}"))
        #expect(try RoutePattern("/c/:x{[}]+}").segments.last == .validated(name: "x", validator: "[}]+"))
    }

    @Test func escapesWriteLiteralSpecialSegments() throws {
        #expect(try RoutePattern("/%3Aid/%2A").segments == [.constant(":id"), .constant("*")])
        #expect(try RoutePattern("/a*b/x%3Ay").segments == [.constant("a*b"), .constant("x:y")])
    }

    @Test func rootAndSlashes() throws {
        #expect(try RoutePattern("/").segments.isEmpty)
        #expect(try RoutePattern("//a///b/").segments == [.constant("a"), .constant("b")])
    }

    static let parseErrors: [(String, URLRoutingError)] = [
        ("", .emptyPattern),
        ("/a/:", .invalidParameterName(pattern: "/a/:", offset: 4)),
        ("/a/:1x", .invalidParameterName(pattern: "/a/:1x", offset: 4)),
        ("/a/:x:y", .adjacentParameters(pattern: "/a/:x:y", offset: 5)),
        ("/a/v-:", .invalidParameterName(pattern: "/a/v-:", offset: 6)),
        ("/a/:x.:y{[a-z]}", .needsWholeSegment(pattern: "/a/:x.:y{[a-z]}", offset: 8)),
        ("/a/:x.:y+", .needsWholeSegment(pattern: "/a/:x.:y+", offset: 8)),
        ("/a/:x+y", .trailingCharacters(pattern: "/a/:x+y", offset: 6)),
        ("/a/**1", .invalidParameterName(pattern: "/a/**1", offset: 5)),
        ("/a/:id<float>", .unknownType(pattern: "/a/:id<float>", type: "float", offset: 7)),
        ("/a/:id<int", .unterminatedParameter(pattern: "/a/:id<int", offset: 6)),
        ("/a/:id{[a-z]+", .unterminatedParameter(pattern: "/a/:id{[a-z]+", offset: 6)),
        ("/a/:id<int>:x", .adjacentParameters(pattern: "/a/:id<int>:x", offset: 11)),
        ("/a/:id{a}x", .trailingCharacters(pattern: "/a/:id{a}x", offset: 9)),
        ("/**a/b/**", .secondRest(pattern: "/**a/b/**", offset: 7, first: 1)),
        ("/:a+/:b*", .secondRest(pattern: "/:a+/:b*", offset: 5, first: 1)),
        ("/a{/b", .unbalancedGroup(pattern: "/a{/b", offset: 2)),
        ("/a}/b", .unbalancedGroup(pattern: "/a}/b", offset: 2)),
        ("/a{}", .emptyGroup(pattern: "/a{}", offset: 2)),
        ("/a?", .misplacedOptional(pattern: "/a?", offset: 2)),
        ("/:a.:b?", .misplacedOptional(pattern: "/:a.:b?", offset: 6)),
        ("/:a?x", .misplacedOptional(pattern: "/:a?x", offset: 3)),
        ("/x" + String(repeating: "{/a}", count: 7), .tooManyAlternatives(pattern: "/x" + String(repeating: "{/a}", count: 7), limit: 64)),
        ("/a{/:id}/b/:id", .duplicateParameter(pattern: "/a{/:id}/b/:id", name: "id")),
        ("/a{/:x:y}", .adjacentParameters(pattern: "/a{/:x:y}", offset: 6)),
        ("/a/:id/b/:id", .duplicateParameter(pattern: "/a/:id/b/:id", name: "id")),
        ("/a/:id/**id", .duplicateParameter(pattern: "/a/:id/**id", name: "id")),
        ("myapp:///books", .missingHost(pattern: "myapp:///books")),
        ("/a%zz", .invalidPercentEscape(offset: 2)),
        ("/a\u{7}", .controlCharacter(offset: 2)),
        ("/" + String(repeating: "a", count: 4_096), .urlTooLong(length: 4_097)),
        (String(repeating: "/a", count: 257), .tooManySegments(count: 257)),
        ("/a/:x{}", .invalidValidator(pattern: "/a/:x{}", reason: "the validator is empty", offset: 6)),
        ("/a/:x{[a-z}", .unterminatedParameter(pattern: "/a/:x{[a-z}", offset: 5)),
        ("/a/:x{(ab}", .invalidValidator(pattern: "/a/:x{(ab}", reason: "unclosed '('", offset: 6)),
        ("/a/:x{+a}", .invalidValidator(pattern: "/a/:x{+a}", reason: "'+' has nothing to repeat", offset: 6)),
        ("/a/:x{a{3,1}}", .invalidValidator(pattern: "/a/:x{a{3,1}}", reason: "{3,1}: the maximum is below the minimum", offset: 7)),
        ("/a/:x{[z-a]}", .invalidValidator(pattern: "/a/:x{[z-a]}", reason: "invalid range", offset: 8)),
        ("/a/:x{a{101}}", .invalidValidator(pattern: "/a/:x{a{101}}", reason: "counts are at most 100", offset: 7)),
        ("/a/:x{a\\}", .unterminatedParameter(pattern: "/a/:x{a\\}", offset: 5)),
    ]

    @Test(arguments: 0..<parseErrors.count)
    func parseErrorsAreTypedWithTheirPosition(_ index: Int) {
        let (text, expected) = Self.parseErrors[index]
        #expect(throws: expected) { try RoutePattern(text) }
        #expect(!expected.description.isEmpty)
    }

    @Test func tooLargeValidatorsAreRefused() {
        #expect(throws: URLRoutingError.self) { try RoutePattern("/a/:x{[a-z]{100}[0-9]{100}}") }
        #expect(throws: URLRoutingError.self) { try RoutePattern("/a/:x{((a{100}){100}){100}}") }
        // 128 positions is the cap, and fits.
        #expect(throws: Never.self) { try RoutePattern("/a/:x{[a-z]{64}[0-9]{64}}") }
    }

    // MARK: Ambiguity

    static let ambiguousPairs: [(String, String)] = [
        ("/books/:id", "/books/:slug"),
        ("/a/:x<int>", "/a/:y<int>"),
        ("/a/:x<int>", "/a/:y{[0-9]+}"),
        ("/a/:x<int>/b", "/a/:y{[0-9]+}/c"),
        ("/a/:x{[a-z]+}", "/a/:y{[a-c]x}"),
        ("/a/:x{\\d+}", "/a/:y{[0-9]+}"),
        ("/a/:x<uuid>", "/a/:y{[0-9a-f-]+}"),
        ("/a/*", "/a/*"),
        ("/a/**", "/a/**rest"),
        ("/a/b", "a/b/"),
        ("https://x.com/a", "HTTPS://X.COM/a"),
        ("/a/:x{en|fr}", "/a/:y{fr|de}"),
    ]

    @Test(arguments: 0..<ambiguousPairs.count)
    func ambiguousPatternsAreRefusedNamingBoth(_ index: Int) throws {
        let (first, second) = Self.ambiguousPairs[index]
        var matcher = URLMatcherBuilder<Int>()
        try matcher.insert(first, value: 1)
        do {
            try matcher.insert(second, value: 2)
            Issue.record("'\(second)' was accepted next to '\(first)'")
        } catch {
            guard case .ambiguous(let existing, let new, _) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(existing == first && new == second)
            #expect(error.description.contains(first) && error.description.contains(second))
        }
        // Refused patterns change nothing.
        #expect(matcher.patterns.map(\.text) == [first])
    }

    @Test func caseInsensitiveConstantsCollide() throws {
        var matcher = URLMatcherBuilder<Int>(caseInsensitive: true)
        try matcher.insert("/Books", value: 1)
        #expect(throws: URLRoutingError.self) { try matcher.insert("/books", value: 2) }
        var sensitive = URLMatcherBuilder<Int>()
        try sensitive.insert("/Books", value: 1)
        try sensitive.insert("/books", value: 2)
        #expect(try sensitive.build().match("/books")?.value == 2)
    }

    static let compatiblePatterns = [
        "/a", "/a/b", "/a/:x", "/a/:x<int>", "/a/:x<uuid>", "/a/:x{[a-z]+}", "/a/*", "/a/**",
        "/a/:x/b", "/a/:x<int>/b", "/a/*/c", "/a/b/**rest", "https://x.com/a", "myapp://x/a", "/",
        "/a/:x{[A-Z]{3}}", "/a/:x{[A-Z]{2}}",
    ]

    @Test func differentlyRankedPatternsCoexist() throws {
        var matcher = URLMatcherBuilder<String>()
        for pattern in Self.compatiblePatterns { try matcher.insert(pattern, value: pattern) }
        #expect(matcher.patterns.count == Self.compatiblePatterns.count)
        #expect(try matcher.build().match("/a/ABC")?.value == "/a/:x{[A-Z]{3}}")
        #expect(try matcher.build().match("/a/AB")?.value == "/a/:x{[A-Z]{2}}")
        #expect(try matcher.build().match("/a/Ab")?.value == "/a/:x")
        #expect(try matcher.build().match("/a/zz/c")?.value == "/a/*/c")
        #expect(try matcher.build().match("/a/b/c/d")?.value == "/a/b/**rest")
    }

    @Test func aRefusedPatternDoesNotBlockLaterOnes() throws {
        var matcher = URLMatcherBuilder<Int>()
        try matcher.insert("/a/:x<int>/b", value: 1)
        #expect(throws: URLRoutingError.self) { try matcher.insert("/a/:y{[0-9]+}/c", value: 2) }
        try matcher.insert("/a/:y{[a-z]+}/c", value: 3)
        #expect(try matcher.build().match("/a/q/c")?.value == 3)
        #expect(try matcher.build().match("/a/1/b")?.value == 1)
        #expect(try matcher.build().match("/a/1/c") == nil)
    }

    // MARK: Validators

    @Test func validatorEngine() throws {
        func matches(_ source: String, _ segment: String) throws -> Bool {
            try ValidatorSyntax.compile(source).matches(segment)
        }
        #expect(try matches("[a-z0-9-]+", "abc-123"))
        #expect(try !matches("[a-z0-9-]+", "ABC"))
        #expect(try matches("a*b", "b") && matches("a*b", "aaab") && !matches("a*b", "aaa"))
        #expect(try matches("(ab)+", "ababab") && !matches("(ab)+", "aba"))
        #expect(try matches("a{2,3}", "aa") && matches("a{2,3}", "aaa") && !matches("a{2,3}", "aaaa"))
        #expect(try matches("a{2,}", "aaaaa") && !matches("a{2,}", "a"))
        #expect(try matches("x?y", "y") && matches("x?y", "xy"))
        #expect(try matches(".", "é") && !matches(".", "ab"))
        #expect(try matches("[^/]+", "a b") && !matches("[^/]+", "a/b"))
        #expect(try matches("\\w+", "a_1") && !matches("\\w+", "a-1"))
        #expect(try matches("[-a]+", "-a-") && matches("[a-]+", "a-"))
        #expect(try matches("[]a]+", "]a"))
        #expect(try matches("caf[é]", "café"))
        #expect(try matches("(a|)b", "b") && matches("(a|)b", "ab"))
        #expect(try matches("(a*)*b", "aaab"))
    }

    @Test func validatorDisjointness() throws {
        func disjoint(_ a: String, _ b: String) throws -> Bool {
            try ValidatorSyntax.compile(a).isDisjoint(from: ValidatorSyntax.compile(b))
        }
        #expect(try disjoint("[a-z]+", "[0-9]+"))
        #expect(try !disjoint("[a-z]+", "[a-c]x"))
        #expect(try disjoint("[A-Z]{3}", "[A-Z]{2}"))
        #expect(try !disjoint("a*", "b*a"))
        #expect(try disjoint("a?", "b?"))  // only the empty string is common, and segments are never empty
        #expect(try !disjoint("(ab)+", "a(ba)*b"))
        #expect(ParameterType.int.validator.isDisjoint(from: ParameterType.uuid.validator))
        #expect(!ParameterType.int.validator.isDisjoint(from: try ValidatorSyntax.compile("\\d{3}")))
    }

    @Test func pathologicalValidatorsStayLinear() throws {
        // (a*)*b on "aaaa…c" is the classic catastrophic backtracking case; here it is a single pass.
        var matcher = URLMatcherBuilder<Int>()
        try matcher.insert("/x/:v{(a*)*(a|aa)*b}", value: 1)
        let url = "/x/" + String(repeating: "a", count: 4_000) + "c"
        // CPU time, not wall time: backtracking would burn it; a busy machine only delays the thread.
        let start = threadCPUSeconds()
        let result = try? matcher.build().match(url)
        let seconds = threadCPUSeconds() - start
        #expect(result == nil)
        #expect(seconds < 1)
    }
}
