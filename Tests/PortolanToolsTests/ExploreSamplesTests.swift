import Portolan
@testable import PortolanTools
import Testing

/// The examples the explorer derives where an app gives none: URLs from route patterns, and the
/// literals of scenario files.
@Suite struct ExploreSamplesTests {
    @Test func eachPatternGetsAURLThatMatchesItAndOneThatDoesNot() throws {
        let graph = try NavigationGraph(root: .screen("root", [
            NodeSpec("movie", routes: ["/movies/:id<int>", "myapp://movie/:id<int>"]),
            NodeSpec("tag", routes: ["/tags/:slug{[a-z]+}"]),
            NodeSpec("files", routes: ["/files/**rest"]),
        ]))
        let movie = ExploreSamples.urls(for: "/movies/:id<int>", of: "movie", in: graph)
        #expect(movie.matching == "/movies/1")
        #expect(movie.other == "/movies/not-a-value!")
        #expect(throws: RouteFailure.self) { try graph.resolve(url: movie.other) }
        #expect(ExploreSamples.urls(for: "myapp://movie/:id<int>", of: "movie", in: graph).matching == "myapp://movie/1")
        let tag = ExploreSamples.urls(for: "/tags/:slug{[a-z]+}", of: "tag", in: graph)
        #expect(tag.matching == "/tags/a")
        let files = ExploreSamples.urls(for: "/files/**rest", of: "files", in: graph)
        #expect(files.matching == "/files")
        #expect(files.other == "/explore-unmatched/files")
    }

    @Test func scenarioLiteralsGiveContextsPayloadsAndURLs() {
        var literals = ScenarioLiterals()
        literals.add(source: """
            portolan.route { "root", { id = "movie", context = { id = 42, lang = "en" } } }
            portolan.route { "root", { id = "movie", context = { id = compute() } } }
            portolan.step("picked", { id = 7, fresh = true })
            portolan.route "/movies/9"
            portolan.route("settings")
            """)
        #expect(literals.contexts["movie"] == [["id": .integer(42), "lang": .string("en")]])
        #expect(literals.payloads["picked"] == [["id": .integer(7), "fresh": .boolean(true)]])
        #expect(literals.urls == ["/movies/9"])
    }
}
