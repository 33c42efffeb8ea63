/// The same patterns and URLs for both routers, so their figures compare.
///
/// Patterns come in groups of five per section, the shapes an app's deep links have:
/// `/section{s}/items`, `/section{s}/items/:id`, `/section{s}/items/:id/reviews`,
/// `/section{s}/users/:user/posts/:post`, `/section{s}/about/team`.
/// (Parameter names agree at each prefix: RoutingKit traps on two names at one position.)
struct Workload {
    enum Piece {
        case constant(String)
        case parameter(String)
    }

    let patterns: [[Piece]]
    let staticHits: [String]
    let parameterHits: [String]
    let misses: [String]

    /// `count` patterns, and `lookups` URLs of each kind over random sections (seeded).
    init(patterns count: Int, lookups: Int = 1_024, seed: UInt64 = 42) {
        var patterns: [[Piece]] = []
        for index in 0..<count {
            let section = Piece.constant("section\(index / 5)")
            switch index % 5 {
            case 0: patterns.append([section, .constant("items")])
            case 1: patterns.append([section, .constant("items"), .parameter("id")])
            case 2: patterns.append([section, .constant("items"), .parameter("id"), .constant("reviews")])
            case 3: patterns.append([section, .constant("users"), .parameter("user"), .constant("posts"), .parameter("post")])
            default: patterns.append([section, .constant("about"), .constant("team")])
            }
        }
        self.patterns = patterns
        let sections = max(1, count / 5)
        var random = Random(seed: seed)
        var staticHits: [String] = []
        var parameterHits: [String] = []
        var misses: [String] = []
        for lookup in 0..<lookups {
            let section = random.below(sections)
            let id = random.below(1_000_000)
            staticHits.append(lookup % 2 == 0 ? "/section\(section)/items" : "/section\(section)/about/team")
            parameterHits.append(
                lookup % 2 == 0 ? "/section\(section)/items/\(id)/reviews" : "/section\(section)/users/u\(id)/posts/\(id)")
            switch lookup % 3 {
            case 0: misses.append("/section\(section)/items/\(id)/nothing")
            case 1: misses.append("/section\(section + sections)/items")
            default: misses.append("/elsewhere/\(id)")
            }
        }
        self.staticHits = staticHits
        self.parameterHits = parameterHits
        self.misses = misses
    }

    /// The pattern as Portolan writes it.
    static func text(_ pattern: [Piece]) -> String {
        "/" + pattern.map { piece in
            switch piece {
            case .constant(let text): return text
            case .parameter(let name): return ":" + name
            }
        }.joined(separator: "/")
    }
}

/// The pattern forms of issue 35 §3, which RoutingKit 4 does not have, each beside the closest
/// RoutingKit routes and the work an app would add to them to read the same parameters:
///
/// | form | Portolan | RoutingKit |
/// |---|---|---|
/// | text and parameters in a segment | `/s{s}/files/:name.:ext` | `/s{s}/files/:file`, split at the last `.` |
/// | an optional parameter | `/s{s}/users/:id?` | `/s{s}/users` and `/s{s}/users/:id` |
/// | a repeatable parameter | `/s{s}/tags/:tag+` | `/s{s}/tags/**` |
/// | a wildcard before the last segment | `/s{s}/docs/**path/edit` | `/s{s}/docs/**`, its last segment checked |
struct FormWorkload {
    enum Form: Int, CaseIterable {
        case composite, optional, repeatable, midPath

        var name: String {
            switch self {
            case .composite: "form, text+params"
            case .optional: "form, optional"
            case .repeatable: "form, repeatable"
            case .midPath: "form, mid-path **"
            }
        }
    }

    /// Section by section, one pattern of each form: the pattern's value is its index.
    let patterns: [(form: Form, section: Int)]
    let lookups: [Form: [String]]

    init(patterns count: Int, lookups: Int = 1_024, seed: UInt64 = 7) {
        patterns = (0..<count).map { (Form(rawValue: $0 % 4) ?? .composite, $0 / 4) }
        let sections = max(1, count / 4)
        var random = Random(seed: seed)
        var lists: [Form: [String]] = [:]
        for lookup in 0..<lookups {
            let section = random.below(sections), id = random.below(1_000_000)
            lists[.composite, default: []].append("/s\(section)/files/report\(id).pdf")
            lists[.optional, default: []].append(lookup % 2 == 0 ? "/s\(section)/users" : "/s\(section)/users/\(id)")
            lists[.repeatable, default: []].append("/s\(section)/tags/swift/lua" + (lookup % 2 == 0 ? "/t\(id)" : ""))
            lists[.midPath, default: []].append("/s\(section)/docs/guide/part\(id)/edit")
        }
        self.lookups = lists
    }

    static func portolanPattern(_ form: Form, section: Int) -> String {
        switch form {
        case .composite: "/s\(section)/files/:name.:ext"
        case .optional: "/s\(section)/users/:id?"
        case .repeatable: "/s\(section)/tags/:tag+"
        case .midPath: "/s\(section)/docs/**path/edit"
        }
    }

    /// The RoutingKit routes standing for the pattern.
    static func routingKitPaths(_ form: Form, section: Int) -> [[String]] {
        switch form {
        case .composite: [["s\(section)", "files", ":file"]]
        case .optional: [["s\(section)", "users"], ["s\(section)", "users", ":id"]]
        case .repeatable: [["s\(section)", "tags", "**"]]
        case .midPath: [["s\(section)", "docs", "**"]]
        }
    }
}

/// SplitMix64: seeded, so every run looks up the same URLs.
struct Random {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func below(_ bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(bound))
    }
}
