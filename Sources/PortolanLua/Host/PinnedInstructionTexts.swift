import Lua
import Portolan

/// The texts of instructions that Lua observers of `instruction` and `rolled_back` get (one event
/// per instruction), pinned in the registry so that delivering one pushes a reference, not a
/// string made in Swift that Lua would hash and look up afresh (`PinnedNodeStrings` does the same
/// for handlers). Only instructions without contexts are pinned; one with a context goes as a
/// value, made anew, as contexts are. So does a text that cannot be pinned (the memory limit).
///
/// A cache of two ways: each instruction may stand in one of two neighbouring slots, found by a
/// hash of its ids' bytes (cheaper than `Hasher` on every event); when both hold others, the text
/// replaces the first, so what is pinned stays bounded whatever the app. (With one way, the two
/// instructions of a colliding pair in a route's path pinned their texts afresh on every route.)
/// A class held by the host's `let`, read and changed in place on every event: its slots hold
/// objects, so finding a text copies no `Instruction`.
final class PinnedInstructionTexts {
    private final class PinnedText {
        let instruction: Instruction
        let text: LuaReference

        init(instruction: Instruction, text: LuaReference) {
            self.instruction = instruction
            self.text = text
        }

        /// Compared here, where the stored instruction is borrowed: `pinned.instruction == x`
        /// outside copied it out of the object and destroyed the copy on every event (callgrind).
        func holds(_ other: Instruction) -> Bool { instruction == other }
    }

    static let slotCount = 1_024
    private var slots = [PinnedText?](repeating: nil, count: slotCount)
    /// How many texts were pinned so far: one per instruction while the slots hold them all.
    private(set) var textsPinned = 0

    /// The instruction's canonical text, as an argument.
    func text(of instruction: Instruction, in state: LuaState) -> LuaArgument {
        guard let first = Self.slot(of: instruction) else { return .value(.string(instruction.description)) }
        let second = (first + 1) % Self.slotCount
        if let pinned = slots[first], pinned.holds(instruction) { return .reference(pinned.text) }
        if let pinned = slots[second], pinned.holds(instruction) { return .reference(pinned.text) }
        let text = instruction.description
        guard let pinned = try? state.pin(.string(text)) else { return .value(.string(text)) }
        textsPinned += 1
        slots[slots[first] != nil && slots[second] == nil ? second : first] = PinnedText(instruction: instruction, text: pinned)
        return .reference(pinned)
    }

    /// The instruction's first slot; nil for one that is not pinned (one with a context, an edit of the stack).
    static func slot(of instruction: Instruction) -> Int? {
        var hash: UInt32 = 2_166_136_261   // FNV-1a
        switch instruction {
        case .enter(let entry):
            guard entry.context.isEmpty else { return nil }
            hash = mixed(hash, entry.id)
        case .leave(let entry):
            guard entry.context.isEmpty else { return nil }
            hash = mixed(hash, entry.id) &* 31 &+ 1
        case .switch(let switchNode, let child):
            guard switchNode.context.isEmpty, child.context.isEmpty else { return nil }
            hash = mixed(mixed(hash, switchNode.id) &* 31 &+ 2, child.id)
        case .update, .remove, .insert, .move:
            // An update changes a context, so there is always one; the stack's edits are rare
            // requests, not a tap's route, and their texts are made anew.
            return nil
        }
        return Int(hash % UInt32(slotCount))
    }

    /// `hash` with the bytes of `id` mixed in, read in place (a small string's on the stack): the
    /// view's iterator cost more than all the rest of the lookup. A value in and out, so that no
    /// variable is shared with a closure (each would be an exclusivity check per event).
    private static func mixed(_ hash: UInt32, _ id: String) -> UInt32 {
        func mix(_ hash: UInt32, _ bytes: some Sequence<UInt8>) -> UInt32 {
            var hash = hash
            for byte in bytes { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
            return hash
        }
        return id.utf8.withContiguousStorageIfAvailable { mix(hash, $0) } ?? mix(hash, id.utf8)
    }
}
