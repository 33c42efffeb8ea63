import Lua
import Portolan

/// The texts of instructions that Lua observers of `instruction` and `rolled_back` get (one event
/// per instruction), pinned in the registry so that delivering one pushes a reference, not a
/// string made in Swift that Lua would hash and look up afresh (`PinnedNodeStrings` does the same
/// for handlers). Only instructions without contexts are pinned; one with a context goes as a
/// value, made anew, as contexts are. So does a text that cannot be pinned (the memory limit).
///
/// A direct-mapped cache: each instruction has one slot, found by a hash of its ids' bytes
/// (cheaper than `Hasher` on every event); a collision replaces the slot's text, so what is
/// pinned stays bounded whatever the app.
struct PinnedInstructionTexts {
    private struct Slot {
        let instruction: Instruction
        let text: LuaReference
    }

    static let slotCount = 1_024
    private var slots = [Slot?](repeating: nil, count: slotCount)

    /// The instruction's canonical text, as an argument.
    mutating func text(of instruction: Instruction, in state: LuaState) -> LuaArgument {
        guard let slot = Self.slot(of: instruction) else { return .value(.string(instruction.description)) }
        if let pinned = slots[slot], pinned.instruction == instruction { return .reference(pinned.text) }
        let text = instruction.description
        guard let pinned = try? state.pin(.string(text)) else { return .value(.string(text)) }
        slots[slot] = Slot(instruction: instruction, text: pinned)
        return .reference(pinned)
    }

    /// The instruction's slot; nil for one with a context, which is not pinned.
    private static func slot(of instruction: Instruction) -> Int? {
        var hash: UInt32 = 2_166_136_261   // FNV-1a
        func mix(_ entry: Entry) {
            for byte in entry.id.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        }
        switch instruction {
        case .enter(let entry):
            guard entry.context.isEmpty else { return nil }
            mix(entry)
        case .leave(let entry):
            guard entry.context.isEmpty else { return nil }
            mix(entry)
            hash = hash &* 31 &+ 1
        case .switch(let switchNode, let child):
            guard switchNode.context.isEmpty, child.context.isEmpty else { return nil }
            mix(switchNode)
            hash = hash &* 31 &+ 2
            mix(child)
        }
        return Int(hash % UInt32(slotCount))
    }
}
