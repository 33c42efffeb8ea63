import Lua
import Portolan
@testable import PortolanLua
import Testing
import TestSupport

/// The cache of instructions' texts that observers of `instruction` get (`PinnedInstructionTexts`).
@Suite struct PinnedInstructionTextsTests {
    /// Two instructions whose hashes land on the same slot, found by trying ids.
    private static func collidingPair() throws -> (Instruction, Instruction) {
        var seen: [Int: Instruction] = [:]
        for number in 0..<10_000 {
            let instruction = Instruction.enter(Entry("n\(number)"))
            guard let slot = PinnedInstructionTexts.slot(of: instruction) else { throw TestFailure("no slot for \(instruction)") }
            if let earlier = seen[slot] { return (earlier, instruction) }
            seen[slot] = instruction
        }
        throw TestFailure("no two of 10,000 ids share a slot")
    }

    @Test func twoInstructionsOfOneSlotArePinnedOnceEach() throws {
        let state = try LuaState(sandboxed: true)
        let texts = PinnedInstructionTexts()
        let (first, second) = try Self.collidingPair()
        let identity = try state.run("return function(text) return text end")
        guard identity.count == 1 else { throw TestFailure("no function: \(identity)") }
        for _ in 0..<10 {
            for instruction in [first, second] {
                guard case .reference(let pinned) = texts.text(of: instruction, in: state) else {
                    throw TestFailure("\(instruction)'s text was not pinned")
                }
                #expect(try state.call(identity[0], passing: [.reference(pinned)]) == [.string(instruction.description)])
            }
        }
        // With one slot each, the pair took turns: a text pinned afresh on every call (20).
        #expect(texts.textsPinned == 2)
    }
}
