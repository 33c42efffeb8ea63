/// Where a route goes.
public enum Destination: Hashable, Sendable {
    /// A list of entries from the root (Portus's static destination).
    case path([Entry])
    /// A node declared reachable from anywhere, entered on top of the active leaf (Portus's
    /// dynamic destination: an alert, a login sheet).
    case anywhere(Entry)
    /// An entry pushed onto the active stack, on top of the active leaf, as `launch` says when the
    /// node is already on the stack (nil: the node's declared mode, else `LaunchMode.push`), after
    /// going back as `popUpTo` says, in the same route.
    case push(Entry, launch: LaunchMode? = nil, popUpTo: PopUpTo? = nil)
    /// A live copy of a node, as `RoutingTree.livePath(to:context:occurrence:)` finds it: the
    /// `occurrence`-th copy of `id` along one path from the root (the active path first, then the
    /// kept stacks), whose context holds `context`'s values. "The second product of the stack."
    case live(NodeID, context: Context = [:], occurrence: Int)
    /// The top screen, which must be an entry of this node, takes this entry's context in place,
    /// or this context merged over its own when `merging`: neither left nor entered, it is
    /// updated (`Instruction.update`). React Navigation's `setParams`, go_router's `replace` of the
    /// same page. `memory` says what becomes of the contexts the screen remembers: with `remember`
    /// it remembers the one it had (React Navigation 8's `pushParams`), and back restores it.
    case update(Entry, merging: Bool = false, memory: ContextMemory = .keep)
    /// A path from the root, as `path` names one, reached by editing the top stack where the graph
    /// allows it: the screens the live path and this one both hold are kept (moved if need be, and
    /// updated when they are the same screen by their node's key), never left and entered again;
    /// the others are removed and inserted around them (`Instruction.remove`, `insert`, `move`).
    /// Where no such edit exists, the route leaves and enters as a path route does. Decompose's
    /// `replaceAll`, React Navigation's `reset`.
    case reset([Entry])
    /// The deepest entry of the active path equal to this one, a screen of the top stack, taken
    /// out from wherever it stands (`reset` to the path without it).
    case remove(Entry)
    /// The deepest entry of the active path equal to the first, a screen of the top stack, replaced
    /// where it stands by the second (`reset` to the path with it in its place).
    case replace(Entry, with: Entry)

    /// A path of ids without context.
    public static func ids(_ ids: NodeID...) -> Destination {
        .path(ids.map { Entry($0) })
    }

    /// Whether the destination is said relative to the live tree (a push or a live copy), so that
    /// it becomes a path only against the tree it is routed on (`RoutingTree.resolve`).
    public var isRelativeToLiveTree: Bool {
        switch self {
        case .path, .anywhere, .reset: false
        case .push, .live, .update, .remove, .replace: true
        }
    }

    /// The entries from the root the route leads to, read against the active path it starts
    /// from: `namedEntries`, except that an update of the top screen leads to that path with its
    /// new top (what guards and handlers see as the route's destination).
    /// The path is read only for an update, so a caller that must lock to read it pays nothing
    /// for any other destination.
    public func entries(from activePath: @autoclosure () -> [Entry]) -> [Entry] {
        guard case .update(let entry, _, _) = self else { return namedEntries }
        let path = activePath()
        return path.count > 1 ? path.dropLast() + [entry] : namedEntries
    }

    /// The entries the route names, root first: the path, or the one entry (a replacement's new
    /// one; none for a removal, which goes to no screen).
    public var namedEntries: [Entry] {
        switch self {
        case .path(let entries), .reset(let entries): entries
        case .anywhere(let entry), .push(let entry, _, _), .update(let entry, _, _), .replace(_, with: let entry): [entry]
        case .remove: []
        case .live(let id, let context, _): [Entry(id, context: context)]
        }
    }
}

extension Destination: CustomStringConvertible {
    /// Canonical text: `root > tabs > home`, `anywhere alert`, `push product {id=7}` (with
    /// ` (single_top)` when the push names its mode, ` (pop_up_to home inclusive)` when it goes
    /// back first, ` (single_top, pop_up_to home)` for both), `live product #2`, `update product
    /// {colour=red}`, `merge product {colour=red}` (with ` (remembering)` or ` (restoring)` when the
    /// update changes what the screen remembers), `reset root > home > cart`, `remove cart`,
    /// `replace cart with checkout`.
    public var description: String {
        switch self {
        case .path(let entries):
            return entries.map(\.description).joined(separator: " > ")
        case .anywhere(let entry):
            return "anywhere \(entry)"
        case .push(let entry, let launch, let popUpTo):
            let options = [launch?.rawValue, popUpTo?.description].compactMap { $0 }
            return "push \(entry)" + (options.isEmpty ? "" : " (\(options.joined(separator: ", ")))")
        case .live(let id, let context, let occurrence):
            return "live \(Entry(id, context: context)) #\(occurrence)"
        case .update(let entry, let merging, let memory):
            let remembering = switch memory {
            case .keep: ""
            case .remember: " (remembering)"
            case .restore: " (restoring)"
            }
            return (merging ? "merge " : "update ") + entry.description + remembering
        case .reset(let entries):
            return "reset " + entries.map(\.description).joined(separator: " > ")
        case .remove(let entry):
            return "remove \(entry)"
        case .replace(let entry, let replacement):
            return "replace \(entry) with \(replacement)"
        }
    }
}

extension Destination {
    /// How a request's destination reads where a request refused before it became a route may
    /// have had none (an empty path): the destination, else the URL it named (`failure.url`),
    /// else `(nothing)`.
    public func requestText(failure: RouteFailure?) -> String {
        guard self == .path([]) else { return description }
        return failure?.url ?? "(nothing)"
    }
}
