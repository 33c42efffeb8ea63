import Lua
import Portolan

/// A restore's outcome as `portolan.restore` returns it, and the restore of a Lua argument.
extension RestoreOutcome {
    /// `{ outcome = "migrated", changes = { "renamed 'a' → 'b' (version 2)", … }, notes = { … },
    /// reason =, redirected = }`: `reason` for a refusal, `redirected` (the destination's text)
    /// when a guard sent the restored app elsewhere, `notes` what the restore noticed besides
    /// (rules changed without a version bump).
    var luaValue: LuaValue {
        var table: [LuaValue: LuaValue] = [
            .string("outcome"): .string(name), .string("changes"): .array(changes.map { .string($0.description) }),
            .string("notes"): .array(notes.map { .string($0.description) }),
        ]
        switch self {
        case .refused(let reason):
            table[.string("reason")] = .string(reason)
        case .restored(.redirected(let destination), _), .migrated(_, .redirected(let destination), _):
            table[.string("redirected")] = .string(destination.description)
        case .restored(.passed, _), .migrated(_, .passed, _):
            break
        }
        return .table(table)
    }
}

extension HostCore {
    /// `portolan.restore(doc)`: a string is the document's bytes; anything else is refused.
    func restore(luaDocument value: LuaValue) -> RestoreOutcome {
        switch value {
        case .string(let text): return restore(Array(text.utf8))
        case .bytes(let bytes): return restore(bytes)
        default: return .refused("not a snapshot: portolan.restore expects the string portolan.snapshot returned, not a \(value.typeName)")
        }
    }
}
