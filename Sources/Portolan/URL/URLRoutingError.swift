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
    /// A second part that takes several segments (`**`, `:name*`, `:name+`) after the one at `first`:
    /// where one ends and the other begins would be a guess.
    case secondRest(pattern: String, offset: Int, first: Int)
    /// Two parameters with no text between them in one segment (`:a:b`): the split is a guess.
    case adjacentParameters(pattern: String, offset: Int)
    /// A validator, `+` or `*` after a parameter in a segment of text and parameters: each needs
    /// the whole segment.
    case needsWholeSegment(pattern: String, offset: Int)
    /// A `{` without its `}`, or a `}` without its `{`.
    case unbalancedGroup(pattern: String, offset: Int)
    /// `{}`: a group with nothing in it.
    case emptyGroup(pattern: String, offset: Int)
    /// A `?` that does not follow a parameter which is its whole segment.
    case misplacedOptional(pattern: String, offset: Int)
    /// A segment of text and parameters too long to compare with the other segments at its place.
    case segmentTooComplex(pattern: String, segment: String, reason: String)
    /// Two of the paths a pattern's optional parts spell match the same URLs.
    case ambiguousAlternatives(pattern: String, first: String, second: String)
    /// More optional parts than ``PatternAlternatives/maximumCount`` paths can spell.
    case tooManyAlternatives(pattern: String, limit: Int)
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

extension URLRoutingError {
    /// The same error with its offset into a pattern moved by `move` (from one of the paths a
    /// pattern stands for to the pattern as written).
    func movingOffsets(_ move: (Int) -> Int) -> URLRoutingError {
        switch self {
        case .invalidParameterName(let pattern, let offset): .invalidParameterName(pattern: pattern, offset: move(offset))
        case .unknownType(let pattern, let type, let offset): .unknownType(pattern: pattern, type: type, offset: move(offset))
        case .invalidValidator(let pattern, let reason, let offset):
            .invalidValidator(pattern: pattern, reason: reason, offset: move(offset))
        case .unterminatedParameter(let pattern, let offset): .unterminatedParameter(pattern: pattern, offset: move(offset))
        case .trailingCharacters(let pattern, let offset): .trailingCharacters(pattern: pattern, offset: move(offset))
        case .secondRest(let pattern, let offset, let first): .secondRest(pattern: pattern, offset: move(offset), first: move(first))
        case .adjacentParameters(let pattern, let offset): .adjacentParameters(pattern: pattern, offset: move(offset))
        case .needsWholeSegment(let pattern, let offset): .needsWholeSegment(pattern: pattern, offset: move(offset))
        case .invalidPercentEscape(let offset): .invalidPercentEscape(offset: move(offset))
        case .invalidUTF8(let offset): .invalidUTF8(offset: move(offset))
        default: self
        }
    }
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
        case .secondRest(let pattern, let offset, let first):
            return "pattern '\(pattern)': a second part of several segments at offset \(offset), after the one at offset \(first); "
                + "a pattern may have one ('**', ':name*' or ':name+')"
        case .adjacentParameters(let pattern, let offset):
            return "pattern '\(pattern)': the parameter at offset \(offset) follows another with no text between them"
        case .needsWholeSegment(let pattern, let offset):
            return "pattern '\(pattern)': at offset \(offset), a validator, '+' or '*' needs a parameter that is its whole segment"
        case .unbalancedGroup(let pattern, let offset):
            return "pattern '\(pattern)': unbalanced group brace at offset \(offset)"
        case .emptyGroup(let pattern, let offset):
            return "pattern '\(pattern)': empty group '{}' at offset \(offset)"
        case .misplacedOptional(let pattern, let offset):
            return "pattern '\(pattern)': '?' at offset \(offset) must follow a parameter that is its whole segment ('/:id?'); "
                + "a group makes anything else optional ('{.:ext}' after text, '{/:section}')"
        case .segmentTooComplex(let pattern, let segment, let reason):
            return "pattern '\(pattern)': segment '\(segment)' is too long to compare with others: \(reason)"
        case .ambiguousAlternatives(let pattern, let first, let second):
            return "pattern '\(pattern)' is ambiguous: its optional parts spell '\(first)' and '\(second)', which match the same URLs"
        case .tooManyAlternatives(let pattern, let limit):
            return "pattern '\(pattern)': its optional parts spell more than \(limit) paths"
        case .duplicateParameter(let pattern, let name):
            return "pattern '\(pattern)': parameter '\(name)' is declared more than once"
        case .ambiguous(let existing, let new, let reason):
            return "patterns '\(existing)' and '\(new)' are ambiguous: \(reason)"
        }
    }
}
