/// One value of an entry's context: a string, a number or a boolean. Its accessors
/// (`stringValue`, `intValue`, `doubleValue`, `boolValue`) read it without a `switch`:
/// `entry.context["id"]?.intValue`. There is no array or table case: a context value that is a Lua
/// table makes the route `invalid`, so structure travels as several keys.
///
/// Numbers compare by value, as in Lua: `.integer(42)` equals `.number(42.0)`, and both print as `42`.
public enum ContextValue: Sendable {
    case string(String)
    case integer(Int64)
    case number(Double)
    case boolean(Bool)

    /// Whether the value can appear in a destination: NaN and infinities cannot, since they never
    /// compare equal to themselves or print back as what they were.
    public var isWellFormed: Bool {
        if case .number(let value) = self { return value.isFinite }
        return true
    }
}

extension ContextValue {
    /// The string, when the value is one.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The number, when it is an exact integer: `42` and `42.0` (numbers compare by value, as in
    /// Lua), not `42.5`, nor a string of digits.
    public var intValue: Int64? {
        switch self {
        case .integer(let value): value
        case .number(let value): Int64(exactly: value)
        case .string, .boolean: nil
        }
    }

    /// The number as a `Double`, whichever case holds it; an integer beyond 2^53 becomes the
    /// nearest `Double`, as Lua's `x + 0.0` does. Nil for a string or a boolean.
    public var doubleValue: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .number(let value): value
        case .string, .boolean: nil
        }
    }

    /// The boolean, when the value is one (no truthiness: `0` and `"false"` are not booleans).
    public var boolValue: Bool? {
        if case .boolean(let value) = self { return value }
        return nil
    }
}

extension ContextValue: Equatable {
    public static func == (lhs: ContextValue, rhs: ContextValue) -> Bool {
        switch (lhs, rhs) {
        case (.string(let a), .string(let b)):
            return a == b
        case (.boolean(let a), .boolean(let b)):
            return a == b
        case (.integer(let a), .integer(let b)):
            return a == b
        case (.number(let a), .number(let b)):
            return a == b
        case (.integer(let a), .number(let b)), (.number(let b), .integer(let a)):
            return Int64(exactly: b) == a
        default:
            return false
        }
    }
}

extension ContextValue: Hashable {
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .string(let value):
            hasher.combine(0)
            hasher.combine(value)
        case .boolean(let value):
            hasher.combine(1)
            hasher.combine(value)
        case .integer, .number:
            // Equal numbers must hash alike whichever case holds them.
            if let integer = intValue {
                hasher.combine(2)
                hasher.combine(integer)
            } else if case .number(let value) = self {
                hasher.combine(3)
                hasher.combine(value)
            }
        }
    }
}

extension ContextValue: CustomStringConvertible {
    /// The most bytes of a string value its text shows; the rest is cut, marked with how much
    /// (`xxxx… (16773120 bytes cut)`). Every event, instruction and report shows values through
    /// here, and a script's value may be as large as its memory cap (256 MiB): 4 KiB keeps a token
    /// or a JSON blob whole while 80 routes of a 16 MiB value no longer copy gigabytes of text.
    public static let shownBytes = 4_096

    /// The value in plain form: integers without `.0`; strings bare unless they would be ambiguous
    /// in an entry's text, then double-quoted with `"` and `\` escaped; past `shownBytes`, cut.
    public var description: String {
        switch self {
        case .string(let whole):
            let (value, cut) = Excerpt.split(whole, atBytes: Self.shownBytes)
            let shown = Self.needsQuotes(value) ? Self.quoted(value) : value
            return cut == 0 ? shown : shown + Excerpt.marker(cut: cut)
        case .boolean(let value):
            return value ? "true" : "false"
        case .integer(let value):
            return String(value)
        case .number(let value):
            if let integer = Int64(exactly: value) { return String(integer) }
            return String(value)
        }
    }

    private static let separators: Set<Character> = [",", "=", "{", "}", " ", "\"", "\\", "\t", "\n"]

    private static func needsQuotes(_ value: String) -> Bool {
        value.isEmpty || value.contains(where: separators.contains)
            || value == "true" || value == "false" || Double(value) != nil
    }

    private static func quoted(_ value: String) -> String {
        var text = "\""
        for character in value {
            if character == "\"" || character == "\\" { text.append("\\") }
            text.append(character)
        }
        return text + "\""
    }
}

extension ContextValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(booleanLiteral value: Bool) { self = .boolean(value) }
}
