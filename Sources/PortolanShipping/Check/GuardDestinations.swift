/// Where each node's guard sends a route, as far as the app's source says so literally
/// (`return portolan.redirect "/login"` inside `guard = function … end` of `{ id = "account", … }`):
/// what `portolan graph` writes beside the guard. It is the linter's reading of the source
/// (`SourceFacts`), so the picture and `portolan check` read redirects one way.
public enum GuardDestinations {
    /// The same for the app script at `path`, read as every loader reads one; empty when it cannot be read.
    public static func read(file path: String) -> [String: [String]] {
        AppChecker.readFile(path).map(read(source:)) ?? [:]
    }

    /// For each node id written literally, the destinations its guard redirects to, in source
    /// order and each once: a URL or an id as written, a path as its ids (`root > onboarding`).
    /// Destinations computed at run time are left out.
    public static func read(source: String) -> [String: [String]] {
        var destinations: [String: [String]] = [:]
        for redirect in SourceFacts(source: source).guardRedirects {
            guard let text = text(of: redirect.destination),
                destinations[redirect.node]?.contains(text) != true
            else { continue }
            destinations[redirect.node, default: []].append(text)
        }
        return destinations
    }

    private static func text(of destination: SourceFacts.Literal) -> String? {
        switch destination {
        case .string(let text):
            return text
        case .table(_, let named) where named["id"] != nil:
            if case .string(let id)? = named["id"] { return id }
            return nil
        case .table(let positional, _):
            let ids = positional.compactMap { literal -> String? in
                if case .string(let id) = literal { return id }
                return nil
            }
            return ids.isEmpty || ids.count != positional.count ? nil : ids.joined(separator: " > ")
        case .other, .dynamic:
            return nil
        }
    }
}
