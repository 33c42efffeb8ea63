import Portolan
import TestSupport

/// An app under soak: where it comes from, and what its routes carry beyond the graph's own ids
/// and patterns: the contexts its handlers read, the old links its redirect rules rewrite, the
/// values of `portolan.state` its guards and handlers read (flipped now and then), and the global
/// logs it keeps growing by design (emptied at each sample, as its scenarios would).
public struct SoakedApp: Sendable {
    public let name: String
    /// The app file; nil for the soak's own app (`SoakApp.lua`, compiled in).
    public let file: String?
    /// The context of an entry of a node, drawn for each route.
    let context: @Sendable (NodeID, inout SeededRandom) -> Context
    /// URLs besides those its patterns match, or nil when it has none.
    let extraURL: (@Sendable (inout SeededRandom) -> String)?
    /// Keys of `portolan.state` flipped between routes.
    let switches: [String]
    /// Globals emptied at each sample.
    let logs: [String]

    /// What the soak runs, with the weight of each: the demo app and the Portus tree under
    /// `repository`, and the soak's own failing app.
    public static func standard(repository: String) -> [(SoakedApp, weight: Int)] {
        [(movies(file: repository + "/Examples/movies/app.lua"), 9), (portus(file: repository + "/Examples/portus/app.lua"), 7),
         (failing, 4)]
    }

    /// The demo app (`Examples/movies/app.lua`): movies and cast members have ids (movie 0 is a
    /// teaser whose cast the interceptor denies), the dashboard's guard redirects until
    /// `portolan.state.logged_in`, cast screens fail while `cast_service_down`, settings refuse to
    /// close while `settings_dirty`.
    public static func movies(file: String) -> SoakedApp {
        SoakedApp(
            name: "movies", file: file,
            context: { id, random in
                if id.hasSuffix("_movie") || id.hasSuffix("_cast") {
                    return random.oneIn(8) ? [:] : ["id": .integer(Int64(random.int(in: 0...5)))]
                }
                if id == "alert" { return ["message": .string("soak")] }
                if id == "onboarding_login" && random.oneIn(5) { return ["remembered": .boolean(true)] }
                return [:]
            },
            extraURL: { random in
                let movie = random.int(in: 0...5)
                return random.element([
                    "/films/\(movie)", "/movie?id=\(movie)", "myapp://movie/\(movie)",
                    "https://movies.example.com/wishlist/movies/\(movie)", "/watched/movies/\(movie)/cast/\(random.int(in: 1...3))",
                ])
            },
            switches: ["logged_in", "cast_service_down", "settings_dirty"], logs: ["route_log"])
    }

    /// The tree of Portus's README (`Examples/portus/app.lua`): no handlers, the planner alone.
    public static func portus(file: String) -> SoakedApp {
        SoakedApp(name: "portus", file: file, context: { _, _ in [:] }, extraURL: nil, switches: [], logs: [])
    }

    /// The soak's own app (`SoakApp.lua`): failures chosen by the entries' contexts.
    public static let failing = SoakedApp(
        name: "failing", file: nil,
        context: { id, random in
            let fail = ContextValue.string(random.element(failModes))
            switch id {
            case "item", "detail": return ["id": .integer(Int64(random.int(in: 0...3))), "fail": fail]
            case "deep", "sheet": return ["fail": fail]
            case "vault": return ["mode": .string(random.element(vaultModes))]
            default: return [:]
            }
        },
        extraURL: { random in
            let fail = random.element(failModes), id = random.int(in: 0...3)
            return random.element([
                "/items/\(id)/\(fail)", "/items/\(id)/\(fail)/detail", "/vault/\(random.element(vaultModes))",
                "/vault/\(random.element(vaultModes))/secret", "/sheet/\(fail)", "/tabs/two/\(fail)",
            ])
        },
        switches: [], logs: [])

    private static let failModes = [
        "none", "none", "none", "enter", "leave", "task", "enter_false", "leave_odd", "reenter", "reenter", "stay",
    ]
    private static let vaultModes = ["open", "deny", "redirect", "resume"]
}
