import Lua
import Portolan

/// The texts of instructions that Lua observers of `instruction` and `rolled_back` get (one event
/// per instruction), pinned in the registry so that delivering one pushes a reference, not a
/// string made in Swift that Lua would hash and look up afresh (`PinnedNodeStrings` does the same
/// for handlers). Only instructions without contexts are pinned; one with a context goes as a
/// value, made anew, as contexts are. So does a text that cannot be pinned (the memory limit).
struct PinnedInstructionTexts {
    private var texts: [Instruction: LuaReference] = [:]

    /// Texts kept at most; a host whose scripts route through more distinct instructions starts
    /// over, so what is pinned stays bounded whatever the app (every node's enter and leave fit).
    static let limit = 4_096

    /// The instruction's canonical text, as an argument.
    mutating func text(of instruction: Instruction, in state: LuaState) -> LuaArgument {
        guard Self.isContextFree(instruction) else { return .value(.string(instruction.description)) }
        if let pinned = texts[instruction] { return .reference(pinned) }
        let text = instruction.description
        guard let pinned = try? state.pin(.string(text)) else { return .value(.string(text)) }
        if texts.count >= Self.limit { texts.removeAll() }
        texts[instruction] = pinned
        return .reference(pinned)
    }

    private static func isContextFree(_ instruction: Instruction) -> Bool {
        switch instruction {
        case .enter(let entry), .leave(let entry): entry.context.isEmpty
        case .switch(let switchNode, let child): switchNode.context.isEmpty && child.context.isEmpty
        }
    }
}
