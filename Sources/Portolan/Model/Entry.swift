/// A node's identifier, unique within an app's graph.
public typealias NodeID = String

/// The context an entry carries: string keys to strings, numbers or booleans.
public typealias Context = [String: ContextValue]

/// A node as a route names it: its id plus the context it is shown with.
///
/// Two entries are equal when id and context are equal; an empty context equals no context,
/// which holds by construction since "no context" is stored as the empty dictionary.
///
/// A screen of the live tree may also remember the contexts it was shown with before
/// (`earlierContexts`, React Navigation 8's `pushParams`), which back gives it again before it
/// leaves the screen. They ride with the entry wherever the tree keeps it (a kept tab stack, an
/// undo step, a snapshot) and go with it when it leaves, but they are not part of what the screen
/// is: two entries that differ only there are equal, and hash alike.
public struct Entry: Hashable, Sendable {
    public var id: NodeID
    public var context: Context
    /// Nil, not an empty array, for the entries that remember nothing (nearly all of them): an
    /// entry is copied on every step of a route, and a nil reference costs nothing to copy.
    private var earlier: [Context]?

    /// How many earlier contexts one entry remembers; the oldest go first.
    public static let earlierContextLimit = 100

    public init(_ id: NodeID, context: Context = [:]) {
        self.id = id
        self.context = context
    }

    /// The contexts the screen was shown with before, oldest first (`ContextMemory`).
    public internal(set) var earlierContexts: [Context] {
        get { earlier ?? [] }
        set { earlier = newValue.isEmpty ? nil : Array(newValue.suffix(Self.earlierContextLimit)) }
    }

    /// This entry given `updated`'s context in place, its earlier contexts as `memory` says:
    /// kept, with its own context added (`remember`), or without the newest (`restore`).
    func updated(to updated: Entry, _ memory: ContextMemory) -> Entry {
        var entry = updated
        switch memory {
        case .keep: entry.earlier = earlier
        case .remember: entry.earlierContexts = earlierContexts + [context]
        case .restore: entry.earlierContexts = earlierContexts.dropLast()
        }
        return entry
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(context)
    }

    /// The same equality as the synthesized one, but two empty contexts are equal without
    /// calling `Dictionary.==`, which retains and releases both: routes compare entries on every
    /// step, and most have no context. (Hashing agrees: it too reads the id and the context only.)
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
