/// A parsed route pattern: an optional `scheme://host`, and the paths it stands for.
///
/// Syntax, segment by segment (split on `/`; leading and repeated slashes ignored, and a trailing
/// one unless the route's slash is significant, ``RouteOptions``):
/// - `books` — a constant, percent-decoded like a URL segment (`%3A` writes a literal `:`, `%2A`
///   a literal `*`, `%7B` a `{`);
/// - `:id` — a parameter; `:id<int>`, `:id<uuid>` — typed; `:slug{[a-z0-9-]+}` — validated by a
///   ``ValidatorSyntax`` pattern that must match the whole segment;
/// - `:name.:ext`, `v-:version<int>` — text and parameters in one segment (``CompositeSegment``);
/// - `*` — exactly one segment;
/// - `**`, `**rest`, `:rest*` — zero or more segments; `:rest+` — one or more; one of these per
///   pattern, anywhere (`/**path/edit`): what follows it matches the URL's last segments;
/// - `{…}` — an optional group (`/docs{/:section}`), and `/:id?` a whole optional segment
///   (``PatternAlternatives``).
///
/// Names are a letter or `_`, then letters, digits or `_`, unique within each path it stands for.
/// `https://example.com/books/:id` matches only URLs with that scheme and host (both compared
/// case-insensitively); a pattern without them matches any URL's routing segments.
/// The root is `/`. Patterns are parsed once, when registered; matching never re-reads them.
public struct RoutePattern: Sendable, Hashable, CustomStringConvertible {
    /// One of the paths a pattern stands for: all of them, when it has no optional part.
    public struct Alternative: Sendable, Hashable {
        /// Its segments, in order.
        public let segments: [PathSegmentPattern]
        /// Whether it is written with a final `/` after a segment (`/a/`).
        public let endsWithSlash: Bool
        /// The compiled validator of each `.validated` segment (`nil` elsewhere), parallel to `segments`.
        let validators: [SegmentValidator?]

        /// Where its multi-segment part is, if it has one.
        let restIndex: Int?
        /// How many parameters a match of it captures at most: what a match's dictionary reserves.
        let parameterCount: Int

        init(segments: [PathSegmentPattern], endsWithSlash: Bool, validators: [SegmentValidator?]) {
            self.segments = segments
            self.endsWithSlash = endsWithSlash
            self.validators = validators
            restIndex = segments.firstIndex { if case .rest = $0 { true } else { false } }
            parameterCount = segments.reduce(0) { $0 + $1.parameterNames.count }
        }

        public static func == (lhs: Alternative, rhs: Alternative) -> Bool {
            lhs.segments == rhs.segments && lhs.endsWithSlash == rhs.endsWithSlash
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(segments)
            hasher.combine(endsWithSlash)
        }
    }

    /// The pattern as written.
    public let text: String
    /// The scheme it requires, lowercased, or `nil`.
    public let scheme: String?
    /// The host it requires, lowercased, or `nil`.
    public let host: String?
    /// How it reads case and a final slash, where it differs from the app.
    public let options: RouteOptions
    /// The paths it stands for, each optional group taken before it is left out: one, without them.
    public let alternatives: [Alternative]

    /// Parses `text`, or throws a ``URLRoutingError`` naming what is wrong and where.
    public init(_ text: String, options: RouteOptions = .app) throws(URLRoutingError) {
        let bytes = Array(text.utf8)
        let parsed = try bytes.withUnsafeBufferPointer { buffer throws(URLRoutingError) in
            try PatternReader(text: text, bytes: buffer).read()
        }
        self.text = text
        self.scheme = parsed.scheme
        self.host = parsed.host
        self.options = options
        self.alternatives = parsed.alternatives
    }

    /// The segments of its first (longest) path.
    public var segments: [PathSegmentPattern] { alternatives[0].segments }

    /// The names of its parameters, in order of first appearance across its paths.
    public var parameterNames: [String] {
        var seen = Set<String>()
        return alternatives.flatMap { $0.segments.flatMap(\.parameterNames) }.filter { seen.insert($0).inserted }
    }

    public var description: String { text }

    public static func == (lhs: RoutePattern, rhs: RoutePattern) -> Bool {
        lhs.scheme == rhs.scheme && lhs.host == rhs.host && lhs.options == rhs.options && lhs.alternatives == rhs.alternatives
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(scheme)
        hasher.combine(host)
        hasher.combine(options)
        hasher.combine(alternatives)
    }
}
