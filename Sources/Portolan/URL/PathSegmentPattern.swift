/// One segment of a route pattern.
///
/// Listed from most to least specific: at each segment the matcher tries a constant, then a typed
/// or validated parameter or a segment of text and parameters, then a plain parameter, then `*`,
/// then a part that takes several segments.
public enum PathSegmentPattern: Sendable, Hashable, CustomStringConvertible {
    /// A segment that must equal this text (percent-decoded; `%3A` writes a leading `:`).
    case constant(String)
    /// `:name<type>`: a segment of that type, whose value reaches handlers typed.
    case typed(name: String, type: ParameterType)
    /// `:name{validator}`: a segment the validator matches as a whole (see ``ValidatorSyntax``).
    case validated(name: String, validator: String)
    /// `:name.:ext`, `v-:version`: text and parameters in one segment.
    case composite(CompositeSegment)
    /// `:name`: any one segment, as a string.
    case parameter(name: String)
    /// `*`: any one segment, not captured.
    case anySegment
    /// Several segments: `**` and `**name` (zero or more), `:name*` (the same), `:name+` (one or
    /// more). At most one per pattern; what follows it is matched against the URL's last segments.
    case rest(name: String?, atLeastOne: Bool)

    /// The specificity class: lower is tried first.
    var rank: Int {
        switch self {
        case .constant: return 0
        case .typed, .validated, .composite: return 1
        case .parameter: return 2
        case .anySegment: return 3
        case .rest: return 4
        }
    }

    /// The name a captured value is stored under, if any.
    public var parameterName: String? {
        switch self {
        case .typed(let name, _), .validated(let name, _), .parameter(let name): return name
        case .rest(let name, _): return name
        case .constant, .anySegment, .composite: return nil
        }
    }

    /// The names of every value it captures (a composite has several).
    var parameterNames: [String] {
        if case .composite(let composite) = self { return composite.parameterNames }
        return parameterName.map { [$0] } ?? []
    }

    /// The segment as a pattern writes it.
    public var description: String {
        switch self {
        case .constant(let text): return text
        case .typed(let name, let type): return ":\(name)<\(type.rawValue)>"
        case .validated(let name, let validator): return ":\(name){\(validator)}"
        case .composite(let composite): return composite.description
        case .parameter(let name): return ":\(name)"
        case .anySegment: return "*"
        case .rest(let name?, true): return ":\(name)+"
        case .rest(let name, _): return "**\(name ?? "")"
        }
    }
}

/// The types a parameter can declare with `:name<type>`.
public enum ParameterType: String, Sendable, Hashable, CaseIterable {
    /// A decimal integer that fits in 64 bits, optionally negative (`42`, `-7`, `007`); no `+`.
    /// Reaches handlers as ``ContextValue/integer(_:)``.
    case int
    /// `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` in hex digits of either case. Reaches handlers as
    /// ``ContextValue/string(_:)`` in canonical lowercase.
    case uuid

    /// The typed value of `segment`, or `nil` when it is not of this type.
    func value(of segment: String) -> ContextValue? {
        switch self {
        case .int:
            return Self.integer(segment).map(ContextValue.integer)
        case .uuid:
            return Self.isUUID(segment) ? .string(segment.lowercased()) : nil
        }
    }

    /// Whether `segment` is of this type (no value built).
    func accepts(_ segment: String) -> Bool {
        switch self {
        case .int: return Self.integer(segment) != nil
        case .uuid: return Self.isUUID(segment)
        }
    }

    /// The same language as a validator, so typed and validated parameters can be compared for
    /// overlap by one algorithm. (`int` also bounds the value, which only makes it smaller:
    /// disjointness proven on the validator holds for the type.)
    var validator: SegmentValidator {
        switch self {
        case .int: return Self.intValidator
        case .uuid: return Self.uuidValidator
        }
    }

    private static let intValidator = Self.builtIn("-?[0-9]+")
    private static let uuidValidator = Self.builtIn(
        "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")

    private static func builtIn(_ source: String) -> SegmentValidator {
        do {
            return try ValidatorSyntax.compile(source)
        } catch {
            // The sources above are constants of this file; the tests compile them.
            preconditionFailure("built-in validator '\(source)' does not compile: \(error.reason)")
        }
    }

    private static func integer(_ segment: String) -> Int64? {
        var utf8 = segment.utf8[...]
        let negative = utf8.first == UInt8(ascii: "-")
        if negative { utf8 = utf8.dropFirst() }
        guard !utf8.isEmpty, utf8.count <= 20 else { return nil }
        var value: Int64 = 0
        for byte in utf8 {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            let digit = Int64(byte - UInt8(ascii: "0"))
            // Accumulate negatively so that Int64.min parses too.
            let (shifted, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (next, overflow2) = shifted.subtractingReportingOverflow(digit)
            if overflow1 || overflow2 { return nil }
            value = next
        }
        if negative { return value }
        return value == .min ? nil : -value
    }

    private static func isUUID(_ segment: String) -> Bool {
        let utf8 = segment.utf8
        guard utf8.count == 36 else { return false }
        for (index, byte) in utf8.enumerated() {
            if index == 8 || index == 13 || index == 18 || index == 23 {
                guard byte == UInt8(ascii: "-") else { return false }
            } else {
                let isHex = (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                    || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f"))
                    || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "F"))
                guard isHex else { return false }
            }
        }
        return true
    }
}
