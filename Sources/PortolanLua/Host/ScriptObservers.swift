import Lua
import Portolan

/// The script's `portolan.on` observers: the functions, by `RouterEvent.Name.slot`, in the order
/// they were added, and one bit per observed event (`RouterEvent.Name.observedBit`).
///
/// What `HostCore.deliver` reads on every event, so a class: delivering takes this one reference
/// out of the app slot (one access to the host's `app`, one retain) and reads the rest here,
/// instead of going back through the host's properties for each part. Each `ScriptRules` makes one
/// of its own, so a reload that sets the rules aside sets their observers aside with them, and a
/// failed one puts back the very same.
final class ScriptObservers {
    /// The events that have an observer, one bit per name: asked on every event, so it hashes
    /// nothing; only those events are turned into Lua values.
    private(set) var observedEvents: UInt8 = 0
    /// The observers of each event (functions: `portolan.on` refuses anything else).
    private var functions = [[LuaReference]](repeating: [], count: RouterEvent.Name.allCases.count)

    func observes(_ name: RouterEvent.Name) -> Bool {
        observedEvents & name.observedBit != 0
    }

    /// The observer of `name` at `position`, or none past the last. Read by position, so that one
    /// an observer adds while an event is delivered is called for that event too.
    func observer(of name: RouterEvent.Name, at position: Int) -> LuaReference? {
        let slot = name.slot
        return position < functions[slot].count ? functions[slot][position] : nil
    }

    func add(_ function: LuaReference, of name: RouterEvent.Name) {
        functions[name.slot].append(function)
        observedEvents |= name.observedBit
    }
}
