/// About how many bytes a value holds in Swift: the UTF-8 of its texts (ids, keys, string values,
/// messages), plus `overhead` for each element around them.
///
/// The bounds on host-side buffers count in it (the route queue, the route history, the REPL's
/// event log): their elements carry copies of what scripts hold, and a script's value may be as
/// large as its memory cap. An estimate, not a measure: texts shared by several elements count
/// once for each, which errs on the safe side. Cheap: a native String knows its UTF-8 count, so it
/// walks entries and keys, never characters.
public protocol HeldBytes {
    var heldBytes: Int { get }
}

extension HeldBytes {
    /// What a value costs around its texts (an enum's payload, an array's slot, a dictionary's
    /// bucket), so that a million empty entries count too.
    public static var overhead: Int { 32 }
}

extension ContextValue: HeldBytes {
    public var heldBytes: Int {
        if case .string(let text) = self { return Self.overhead + text.utf8.count }
        return Self.overhead
    }
}

extension Entry: HeldBytes {
    public var heldBytes: Int {
        let earlier = earlierContexts.reduce(0) { $0 + Self.heldBytes(of: $1) }
        return Self.heldBytes(of: context) + Self.overhead + id.utf8.count + earlier
    }

    private static func heldBytes(of context: Context) -> Int {
        context.reduce(overhead) { $0 + $1.key.utf8.count + $1.value.heldBytes }
    }
}

extension Destination: HeldBytes {
    public var heldBytes: Int {
        switch self {
        case .path(let entries), .reset(let entries): entries.reduce(Self.overhead) { $0 + $1.heldBytes }
        case .anywhere(let entry), .update(let entry, _, _), .remove(let entry): Self.overhead + entry.heldBytes
        case .replace(let entry, let replacement): Self.overhead + entry.heldBytes + replacement.heldBytes
        case .push(let entry, _, let popUpTo): Self.overhead + entry.heldBytes + (popUpTo?.id.utf8.count ?? 0)
        case .live(let id, let context, _): Self.overhead + Entry(id, context: context).heldBytes
        }
    }
}

extension Instruction: HeldBytes {
    public var heldBytes: Int {
        switch self {
        case .enter(let entry), .leave(let entry), .remove(let entry): Self.overhead + entry.heldBytes
        case .switch(let node, let to), .update(let node, let to), .insert(let node, under: let to):
            Self.overhead + node.heldBytes + to.heldBytes
        case .move(let entry, let upper): Self.overhead + entry.heldBytes + (upper?.heldBytes ?? 0)
        }
    }
}

extension Array: HeldBytes where Element: HeldBytes {
    public var heldBytes: Int { reduce(Self.overhead) { $0 + $1.heldBytes } }
}

extension RouteStep: HeldBytes {
    public var heldBytes: Int { Entry(name, context: payload).heldBytes }
}

extension RouteFailure: HeldBytes {
    public var heldBytes: Int {
        Self.overhead + message.utf8.count + (url?.utf8.count ?? 0) + (instruction?.heldBytes ?? 0) + executed.heldBytes
            + rolledBack.heldBytes
            + (rollbackFailure.map { $0.message.utf8.count + ($0.instruction?.heldBytes ?? 0) } ?? 0)
    }
}

extension RouterEvent: HeldBytes {
    public var heldBytes: Int {
        switch self {
        case .willRoute(let destination): Self.overhead + destination.heldBytes
        case .instruction(let instruction), .hostReported(let instruction), .rolledBack(let instruction):
            Self.overhead + instruction.heldBytes
        case .didRoute(let destination, let executed): Self.overhead + destination.heldBytes + executed.heldBytes
        case .failed(let destination, let failure): Self.overhead + destination.heldBytes + failure.heldBytes
        case .redirected(let from, let to): Self.overhead + from.heldBytes + to.heldBytes
        case .treeCarried(let changes): Self.overhead + changes.reduce(0) { $0 + $1.description.utf8.count }
        }
    }
}

extension RouteRecord: HeldBytes {
    public var heldBytes: Int {
        Self.overhead + requested.heldBytes + settled.heldBytes + executed.heldBytes + (failure?.heldBytes ?? 0)
    }
}
