/// Why a URL could not be read, a route pattern could not be parsed, or a pattern was refused.
///
/// Offsets are 0-based UTF-8 byte offsets into the text that was given (the URL or the pattern);
/// for ASCII text they are character positions.
///
/// Named `URLRoutingError` rather than `URLError` so that it never clashes with Foundation's.
public enum URLRoutingError: Error, Equatable, Sendable {
    // MARK: URLs

    /// The URL is the empty string.
    case emptyURL
    /// The URL is only a query or a fragment (`?`, `#`, `?a=1`, `#top`): there is nothing to route to.
    case noPath(String)
    /// The URL is longer than ``URLLimits/maximumLength`` bytes.
    case urlTooLong(length: Int)
    /// The URL's path has more than ``URLLimits/maximumSegments`` non-empty segments.
    case tooManySegments(count: Int)
    /// `%` not followed by two hexadecimal digits.
    case invalidPercentEscape(offset: Int)
    /// A component's percent-decoded bytes are not valid UTF-8.
    case invalidUTF8(offset: Int)
    /// A control character (U+0000–U+001F or U+007F), raw or percent-encoded.
    case controlCharacter(offset: Int)
    /// The text before `://` is not a scheme (a letter, then letters, digits, `+`, `-` or `.`).
    case invalidScheme(offset: Int)

    // MARK: Patterns

    /// The pattern is the empty string (the root is `/`).
    case emptyPattern
    /// A pattern that names a scheme has no host (`myapp:///books`).
    case missingHost(pattern: String)
    /// `:` or `**` followed by something that is not a name (a letter or `_`, then letters, digits or `_`).
    case invalidParameterName(pattern: String, offset: Int)
    /// `:name<type>` with a type other than `int` or `uuid`.
    case unknownType(pattern: String, type: String, offset: Int)
    /// A `{validator}` that does not parse, or is too large; `reason` says why.
    case invalidValidator(pattern: String, reason: String, offset: Int)
    /// An unclosed `<` or `{` in a parameter.
    case unterminatedParameter(pattern: String, offset: Int)
    /// Text after a parameter's `<type>` or `{validator}` in the same segment.
    case trailingCharacters(pattern: String, offset: Int)
    /// `**` is somewhere other than the last segment.
    case restNotLast(pattern: String, offset: Int)
    /// Two parameters (or a parameter and `**name`) share a name.
    case duplicateParameter(pattern: String, name: String)

    // MARK: Matchers

    /// Two patterns rank equally for some URL: the matcher would have to pick one silently.
    /// `existing` was registered first, `new` was refused.
    case ambiguous(existing: String, new: String, reason: String)
}

/// Caps on what the URL layer reads, so that hostile input costs bounded time and memory.
public enum URLLimits {
    /// The longest URL or pattern accepted, in UTF-8 bytes.
    public static let maximumLength = 4_096
    /// The most non-empty path segments a URL or pattern may have.
    public static let maximumSegments = 256
    /// The most character positions a `{validator}` may compile to (after `{n,m}` is expanded).
    public static let maximumValidatorPositions = 128
}

extension URLRoutingError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .emptyURL:
            return "the URL is empty"
        case .noPath(let url):
            return "'\(Excerpt.of(url))' has no path: a lone query or fragment routes nowhere"
        case .urlTooLong(let length):
            return "the URL is \(length) bytes long; the limit is \(URLLimits.maximumLength)"
        case .tooManySegments(let count):
            return "the URL has \(count) path segments; the limit is \(URLLimits.maximumSegments)"
        case .invalidPercentEscape(let offset):
            return "invalid percent escape at offset \(offset): '%' must be followed by two hex digits"
        case .invalidUTF8(let offset):
            return "the component at offset \(offset) is not valid UTF-8 once percent-decoded"
        case .controlCharacter(let offset):
            return "control character at offset \(offset)"
        case .invalidScheme(let offset):
            return "invalid scheme before '://' at offset \(offset)"
        case .emptyPattern:
            return "the pattern is empty (the root is '/')"
        case .missingHost(let pattern):
            return "pattern '\(pattern)' names a scheme but no host"
        case .invalidParameterName(let pattern, let offset):
            return "pattern '\(pattern)': expected a parameter name at offset \(offset)"
        case .unknownType(let pattern, let type, let offset):
            return "pattern '\(pattern)': unknown parameter type '\(type)' at offset \(offset) (known: int, uuid)"
        case .invalidValidator(let pattern, let reason, let offset):
            return "pattern '\(pattern)': invalid validator at offset \(offset): \(reason)"
        case .unterminatedParameter(let pattern, let offset):
            return "pattern '\(pattern)': unterminated '<' or '{' at offset \(offset)"
        case .trailingCharacters(let pattern, let offset):
            return "pattern '\(pattern)': unexpected characters after the parameter at offset \(offset)"
        case .restNotLast(let pattern, let offset):
            return "pattern '\(pattern)': '**' at offset \(offset) must be the last segment"
        case .duplicateParameter(let pattern, let name):
            return "pattern '\(pattern)': parameter '\(name)' is declared more than once"
        case .ambiguous(let existing, let new, let reason):
            return "patterns '\(existing)' and '\(new)' are ambiguous: \(reason)"
        }
    }
}
