/// Where the URLs an app accepts may come from: the custom schemes it owns (`shop://…`, any host)
/// and the web hosts it serves (`https://shop.example/…`, over `http` or `https`). A URL with
/// neither scheme nor host (`/products/2`) is the app's own and always accepted.
///
/// Why: a pattern without a scheme or host matches every URL's path, so without a list
/// `https://evil.example/products/2` routes into the app as `/products/2` does. An app that
/// declares neither list accepts every origin, as before lists existed.
public struct URLOrigins: Sendable, Equatable {
    /// Lowercased schemes: every URL with one of them is accepted.
    public let schemes: Set<String>
    /// Lowercased hosts: an `http` or `https` URL with one of them is accepted.
    public let hosts: Set<String>

    /// Every origin: what an app that declares no list accepts.
    public static let any = URLOrigins(schemes: [], hosts: [])

    public init(schemes: Set<String>, hosts: Set<String>) {
        self.schemes = Set(schemes.map { $0.lowercased() })
        self.hosts = Set(hosts.map { $0.lowercased() })
    }

    /// Whether the lists leave every origin open.
    public var isOpen: Bool { schemes.isEmpty && hosts.isEmpty }

    /// The schemes whose URLs `hosts` names the hosts of.
    public static let webSchemes: Set<String> = ["http", "https"]

    /// Whether `url` comes from an origin the app accepts (ParsedURL lowercases scheme and host).
    ///
    /// With `hosts` given, an `http` or `https` URL must come from one of them, even when `schemes`
    /// lists its scheme: whoever lists `https` beside their hosts means "my web links", not every
    /// host's (docs/urls.md). Without `hosts`, a listed web scheme admits all of its URLs, as any
    /// listed scheme does.
    public func accepts(_ url: ParsedURL) -> Bool {
        guard !isOpen, let scheme = url.scheme else { return true }
        let isWeb = Self.webSchemes.contains(scheme)
        if isWeb, !hosts.isEmpty {
            return url.host.map(hosts.contains) ?? false
        }
        return schemes.contains(scheme)
    }

    /// The accepted origins as a refusal lists them: `shop://, https://shop.example`.
    public var summary: String {
        let bounded = hosts.isEmpty ? schemes : schemes.subtracting(Self.webSchemes)
        let listed = bounded.sorted().map { $0 + "://" } + hosts.sorted().map { "https://" + $0 }
        return listed.isEmpty ? "any" : listed.joined(separator: ", ")
    }
}
