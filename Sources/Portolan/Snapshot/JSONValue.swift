/// A JSON value, as a snapshot document holds it: the engine's form of what the document's bytes
/// say, read by the host's decoder (FoundationEssentials' `JSONDecoder`) and written by
/// `CanonicalJSON`.
///
/// Numbers have two cases so that an integer stays exact: `.integer` for every number that is a
/// whole number within Int64, `.number` for the rest (always finite).
public enum JSONValue: Sendable, Equatable {
    case null
    case boolean(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// A number in its one form: a whole number within Int64 is an integer, whatever case built it.
    public static func number(normalizing value: Double) -> JSONValue {
        if let integer = Int64(exactly: value) { return .integer(integer) }
        return .number(value)
    }

    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    public var integerValue: Int64? {
        if case .integer(let value) = self { return value }
        return nil
    }

    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    public var objectValue: [String: JSONValue]? {
        if case .object(let value) = self { return value }
        return nil
    }
}
