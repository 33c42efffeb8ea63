/// A node's identifier, unique within an app's graph.
public typealias NodeID = String

/// The context an entry carries: string keys to strings, numbers or booleans.
public typealias Context = [String: ContextValue]

/// A node as a route names it: its id plus the context it is shown with.
///
/// Two entries are equal when id and context are equal; an empty context equals no context,
/// which holds by construction since "no context" is stored as the empty dictionary.
public struct Entry: Hashable, Sendable {
    public var id: NodeID
    public var context: Context

    public init(_ id: NodeID, context: Context = [:]) {
        self.id = id
        self.context = context
    }

    /// The same equality as the synthesized one, but two empty contexts are equal without
    /// calling `Dictionary.==`, which retains and releases both: routes compare entries on every
    /// step, and most have no context. (Hashing stays synthesized; it agrees.)
    public static func == (lhs: Entry, rhs: Entry) -> Bool {
        guard lhs.id == rhs.id else { return false }
        if lhs.context.isEmpty || rhs.context.isEmpty {
            return lhs.context.isEmpty && rhs.context.isEmpty
        }
        return lhs.context == rhs.context
    }

    /// Whether every context value can be part of a destination.
    public var isWellFormed: Bool {
        // Most entries have no context; asked once per instruction, that case skips the iterator.
        !id.isEmpty && (context.isEmpty || context.values.allSatisfy(\.isWellFormed))
    }
}

extension Entry: CustomStringConvertible {
    /// Canonical text, used by every interface: `book {id=42,lang=en}`, keys sorted, the context
    /// omitted when empty.
    public var description: String {
        guard !context.isEmpty else { return id }
        let pairs = context.keys.sorted().map { key in "\(key)=\(context[key, default: .boolean(false)])" }
        return "\(id) {\(pairs.joined(separator: ","))}"
    }
}

extension Entry: ExpressibleByStringLiteral {
    public init(stringLiteral id: String) {
        self.init(id)
    }
}
