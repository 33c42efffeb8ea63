import Portolan
import Testing

/// Every pattern form of issue 35 §3, with the peers' own cases (Tests/PeerCases/URLPatterns.md
/// names each source) where our reading agrees, and the reading we chose where the peers disagree.
@Suite struct URLPatternFormTests {
    /// A matcher of `patterns` (values are their indices), with the app's defaults given.
    static func matcher(
        _ patterns: [(String, RouteOptions)], caseInsensitive: Bool = false, significantTrailingSlash: Bool = false
    ) throws -> URLMatcher<Int> {
        var builder = URLMatcherBuilder<Int>(caseInsensitive: caseInsensitive, significantTrailingSlash: significantTrailingSlash)
        for (index, (text, options)) in patterns.enumerated() {
            try builder.insert(RoutePattern(text, options: options), value: index)
        }
        return builder.build()
    }

    static func matcher(_ patterns: String..., significantTrailingSlash: Bool = false) throws -> URLMatcher<Int> {
        try matcher(patterns.map { ($0, RouteOptions.app) }, significantTrailingSlash: significantTrailingSlash)
    }

    /// The parameters `url` gets, or nil when nothing matches.
    static func parameters(_ matcher: URLMatcher<Int>, _ url: String) throws -> [String: ContextValue]? {
        try matcher.match(url)?.parameters
    }

    static func refusal(_ patterns: String...) -> String? {
        var builder = URLMatcherBuilder<Int>()
        do {
            for (index, text) in patterns.enumerated() { try builder.insert(text, value: index) }
            return nil
        } catch {
            return error.description
        }
    }

    // MARK: Text and parameters in one segment

    @Test func textAndParametersSplitFromTheEnd() throws {
        // path-to-regexp 8's `/:test.:format` rows.
        let format = try Self.matcher("/:test.:format")
        #expect(try Self.parameters(format, "/route.html") == ["test": "route", "format": "html"])
        #expect(try Self.parameters(format, "/route") == nil)
        #expect(try Self.parameters(format, "/route.html.json") == ["test": "route.html", "format": "json"])
        // `/:test.json`: a parameter takes at least a character.
        let json = try Self.matcher("/:test.json")
        #expect(try Self.parameters(json, "/.json") == nil)
        #expect(try Self.parameters(json, "/route.json.json") == ["test": "route.json"])
        let pipes = try Self.matcher("/:foo|:bar|")
        #expect(try Self.parameters(pipes, "/hello|world|") == ["foo": "hello", "bar": "world"])
        #expect(try Self.parameters(pipes, "/hello||") == nil)
        // Vue Router's 'param multiple' and 'param combined'; RoutingKit 5's partial with three.
        #expect(try Self.parameters(Self.matcher("/:a-:b-:c"), "/one-two-three") == ["a": "one", "b": "two", "c": "three"])
        #expect(try Self.parameters(Self.matcher("/hey:a"), "/heyedu") == ["a": "edu"])
        #expect(try Self.parameters(Self.matcher("/test/:my-test-:file.:extension"), "/test/foo-test-bar.txt")
            == ["my": "foo", "file": "bar", "extension": "txt"])
    }

    @Test func aTypedParameterInASegmentIsChecked() throws {
        let versions = try Self.matcher("/v-:version<int>", "/w-:name")
        #expect(try Self.parameters(versions, "/v-12") == ["version": .integer(12)])
        #expect(try versions.match("/v-beta") == nil)
        #expect(try versions.match("/w-12")?.value == 1)
        // Both would accept `v-12`: which one wins must not be a silent pick.
        #expect(Self.refusal("/v-:version<int>", "/v-:name")?.contains("both accept some segments") == true)
    }

    @Test func segmentsOfTextAndParametersRankBeforeAPlainParameter() throws {
        let files = try Self.matcher("/files/:name", "/files/:name.:ext", "/files/readme.md")
        #expect(try files.match("/files/a.b")?.value == 1)
        #expect(try files.match("/files/ab")?.value == 0)
        #expect(try files.match("/files/readme.md")?.value == 2)
    }

    @Test func overlappingSegmentsOfTextAreRefusedNamingBoth() throws {
        let both = try #require(Self.refusal("/:a.:b", "/:a-:b"))
        #expect(both.contains("'/:a.:b' and '/:a-:b'") && both.contains("both accept some segments"))
        #expect(Self.refusal("/:a.json", "/:a.xml") == nil)
        #expect(Self.refusal("/:a.:b", "/:x.:y")?.contains("both match the same URLs") == true)
    }

    @Test func textInASegmentFollowsTheRoutesCase() throws {
        let matcher = try Self.matcher([("/V-:n", .app)], caseInsensitive: true)
        #expect(try Self.parameters(matcher, "/v-3") == ["n": "3"])
    }

    // MARK: Optional parameters and groups

    @Test func anOptionalSegmentMatchesWithAndWithoutIt() throws {
        let users = try Self.matcher("/users/:id?")
        #expect(try Self.parameters(users, "/users") == [:])
        #expect(try Self.parameters(users, "/users/42") == ["id": "42"])
        #expect(try Self.parameters(users, "/users/1/2") == nil)
        // Vue Router's 'param optional followed by static'.
        let one = try Self.matcher("/:a?/one")
        #expect(try Self.parameters(one, "/one") == [:])
        #expect(try Self.parameters(one, "/two") == nil)
        #expect(try Self.parameters(one, "/two/one") == ["a": "two"])
    }

    @Test func groupsArePathToRegexpsOptionalParts() throws {
        let docs = try Self.matcher("/docs{/:section}")
        #expect(try Self.parameters(docs, "/docs") == [:])
        #expect(try Self.parameters(docs, "/docs/intro") == ["section": "intro"])
        let bar = try Self.matcher("{/:test}/bar")
        #expect(try Self.parameters(bar, "/bar") == [:])
        #expect(try Self.parameters(bar, "/foo/bar") == ["test": "foo"])
        let users = try Self.matcher("/user{s}/:user")
        #expect(try Self.parameters(users, "/user/123") == ["user": "123"])
        #expect(try Self.parameters(users, "/users/123") == ["user": "123"])
        #expect(try Self.parameters(Self.matcher("/:foo{/test/:bar}"), "/route/test/again") == ["foo": "route", "bar": "again"])
        #expect(try Self.parameters(Self.matcher("/name{/:a{-:b}}"), "/name/1-2") == ["a": "1", "b": "2"])
    }

    @Test func optionalPartsThatReadOneURLTwoWaysAreRefused() throws {
        // path-to-regexp takes the first of `/name/:attr1-:attr3` and `/name/:attr1-:attr2`; we refuse.
        let refusal = try #require(Self.refusal("/name{/:attr1}{-:attr2}{-:attr3}"))
        #expect(refusal.contains("its optional parts spell '/name/:attr1-:attr2-:attr3' and '/name/:attr1-:attr2'"))
        #expect(Self.refusal("/name{/:attr1}{.:attr2}") == nil)
        #expect(try Self.parameters(Self.matcher("/:file{.:ext}"), "/notes.txt") == ["file": "notes", "ext": "txt"])
        #expect(try Self.parameters(Self.matcher("/:file{.:ext}"), "/notes") == ["file": "notes"])
        #expect(Self.refusal("/users/:id?", "/users")?.contains("both match the same URLs") == true)
    }

    // MARK: Parts of several segments

    @Test func repeatableParametersTakeTheirSegmentsJoined() throws {
        #expect(try Self.parameters(Self.matcher("/:a+"), "/one/two") == ["a": "one/two"])
        #expect(try Self.parameters(Self.matcher("/:a+"), "/") == nil)
        #expect(try Self.parameters(Self.matcher("/:a*"), "/") == ["a": ""])
        #expect(try Self.parameters(Self.matcher("/one/:a+"), "/one/two/three") == ["a": "two/three"])
        #expect(try Self.parameters(Self.matcher("/a/:id+"), "/a/b/c/d/") == ["id": "b/c/d"])
    }

    @Test func oneOrMoreIsRoutingKitsCatchall() throws {
        // RoutingKit's `catchallValue`, with `:c+` for its `**`.
        let users = try Self.matcher("/users/:user/:c+", "/users/:c+")
        #expect(try users.match("/users") == nil)
        #expect(try users.match("/users/stevapple")?.value == 1)
        #expect(try Self.parameters(users, "/users/stevapple/posts/2") == ["user": "stevapple", "c": "posts/2"])
        // `catchallNested`: the deepest part that fits wins.
        let nested = try Self.matcher("/:c+", "/a/:c+", "/a/b/:c+", "/a/b")
        #expect(try nested.match("/a")?.value == 0)
        #expect(try nested.match("/a/b")?.value == 3)
        #expect(try nested.match("/a/b/c")?.value == 2)
        #expect(try nested.match("/a/c")?.value == 1)
        #expect(try nested.match("/b/c/d/e")?.value == 0)
        // `catchallPrecedence`: a constant, then one segment, then the catchall.
        let precedence = try Self.matcher("/v1/test", "/v1/:c+", "/v1/*")
        #expect(try precedence.match("/v1/test")?.value == 0)
        #expect(try precedence.match("/v1/test/foo")?.value == 1)
        #expect(try precedence.match("/v1/foo")?.value == 2)
    }

    @Test func zeroOrMoreBesideItsOwnPrefix() throws {
        let zero = try Self.matcher("/a/**", "/a")
        #expect(try zero.match("/a")?.value == 1)
        #expect(try zero.match("/a/b")?.value == 0)
        #expect(Self.refusal("/files/**p", "/files/:p*")?.contains("both match some URLs") == true)
        #expect(Self.refusal("/files/:p+", "/files") == nil)
    }

    @Test func aPartOfSeveralSegmentsBeforeTheLast() throws {
        let edit = try Self.matcher("/**path/edit")
        #expect(try Self.parameters(edit, "/a/b/edit") == ["path": "a/b"])
        #expect(try Self.parameters(edit, "/a/edit/edit") == ["path": "a/edit"])
        #expect(try Self.parameters(edit, "/edit") == ["path": ""])
        #expect(try Self.parameters(Self.matcher("/:path+/edit"), "/edit") == nil)
        // path-to-regexp's `/entity/:id/*path` and `/x/*a/y`-like rows.
        let entity = try Self.matcher("/entity/:id/:path+")
        #expect(try Self.parameters(entity, "/entity/foo") == nil)
        #expect(try Self.parameters(entity, "/entity/foo/path") == ["id": "foo", "path": "path"])
        #expect(try Self.parameters(Self.matcher("/x/:a+/y"), "/x/foo/bar/y") == ["a": "foo/bar"])
        #expect(try Self.parameters(Self.matcher("/**p/:name.:ext"), "/a/b/c.txt") == ["p": "a/b", "name": "c", "ext": "txt"])
    }

    @Test func partsOfSeveralSegmentsAtOnePlaceMustBeDisjoint() throws {
        #expect(Self.refusal("/**p/edit", "/**q/view") == nil)
        #expect(Self.refusal("/**p/edit", "/**q/:x")?.contains("both match some URLs from segment 1 on") == true)
        #expect(Self.refusal("/**p/edit", "/**q/a/edit")?.contains("both match some URLs") == true)
    }

    // MARK: Trailing slash and case

    @Test func aSignificantTrailingSlash() throws {
        // Vue Router's strict rows, app-wide.
        let strict = try Self.matcher("/foo", "/bar/", significantTrailingSlash: true)
        #expect(try strict.match("/foo")?.value == 0)
        #expect(try strict.match("/foo/") == nil)
        #expect(try strict.match("/bar") == nil)
        #expect(try strict.match("/bar/")?.value == 1)
        // The default ignores it, as before.
        let loose = try Self.matcher("/home")
        #expect(try loose.match("/home/")?.value == 0)
        // Strict `/a` and `/a/` are disjoint; either beside one that ignores the slash is not.
        let both = try Self.matcher("/a", "/a/", significantTrailingSlash: true)
        #expect(try both.match("/a")?.value == 0 && both.match("/a/")?.value == 1)
    }

    @Test func aRouteWithAStrictSlashBesideALooseOneIsRefused() {
        var builder = URLMatcherBuilder<Int>()
        #expect(throws: URLRoutingError.self) {
            try builder.insert(RoutePattern("/a"), value: 0)
            try builder.insert(RoutePattern("/a/", options: RouteOptions(significantTrailingSlash: true)), value: 1)
            try builder.insert(RoutePattern("/a", options: RouteOptions(significantTrailingSlash: true)), value: 2)
        }
    }

    @Test func caseSensitivityPerRoute() throws {
        // Vue Router's 'can be sensitive' and RoutingKit's `caseSensitiveRouting`, route by route.
        let sensitive = try Self.matcher([("/home", .app), ("/Promo", RouteOptions(caseInsensitive: true))])
        #expect(try sensitive.match("/HOMe") == nil)
        #expect(try sensitive.match("/pROMO")?.value == 1)
        let insensitive = try Self.matcher([("/path/TO/fOo", RouteOptions(caseInsensitive: false)), ("/other", .app)], caseInsensitive: true)
        #expect(try insensitive.match("/PATH/tO/FOo") == nil)
        #expect(try insensitive.match("/path/TO/fOo")?.value == 0)
        #expect(try insensitive.match("/OTHER")?.value == 1)
    }

    @Test func aConstantInAnyCaseBesideTheSameLettersInOneIsRefused() throws {
        var builder = URLMatcherBuilder<Int>()
        try builder.insert(RoutePattern("/Home", options: RouteOptions(caseInsensitive: true)), value: 0)
        #expect(throws: URLRoutingError.ambiguous(
            existing: "/Home", new: "/home", reason: "at segment 1, 'home' and the same letters in any case both match 'home'")
        ) {
            try builder.insert(RoutePattern("/home"), value: 1)
        }
        try builder.insert(RoutePattern("/away"), value: 2)
    }
}
