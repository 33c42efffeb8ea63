import Lua
import Portolan
import TestSupport

/// The property-based fuzzer of Lua value conversion (`LuaConversion`, `LuaValueEncoding`,
/// `EncodedValues.c`). Even inputs are values made in Swift (`ConversionValues`): each must come back
/// from Lua the same (`BridgeSameness`), or, when it holds a fault, be refused with a `LuaError`
/// of the fault's kind whose message names it. Odd inputs are values Lua code makes from a seed
/// (`LuaMadeValues.lua`): each must convert to Swift holding what Lua counted in it
/// (`BridgeCensus`), and go back to Lua the same, or be refused as cyclic or too deep when it is.
/// After every input, failed or not, the state must run a chunk with its stack as it was.
///
/// Every eighth pair runs on a state as deep as a host's (`2 × NavigationGraph.maximumDepth + 8`
/// levels, of which Swift may push 1,000), the others on a plain state (200).
public final class ConversionFuzzer {
    public let seed: UInt64
    public private(set) var report = ConversionFuzzReport()
    private let plain: ConversionFuzzState
    private let hostDeep: ConversionFuzzState

    public init(seed: UInt64) throws(LuaError) {
        self.seed = seed
        plain = try ConversionFuzzState(maximumDepth: 200)
        hostDeep = try ConversionFuzzState(maximumDepth: 2 * NavigationGraph.maximumDepth + 8)
    }

    /// Runs the inputs of `indices`; throws at the first that breaks a property.
    public func run(_ indices: Range<Int>) throws(FuzzFailure) {
        for index in indices {
            var random = SeededRandom.forInput(index, seed: seed)
            let state = (index / 2) % 8 == 7 ? hostDeep : plain
            if index % 2 == 0 {
                try swiftMade(index, &random, on: state)
            } else {
                try luaMade(index, &random, on: state)
            }
            try stillUsable(index, state)
        }
    }

    private func swiftMade(_ index: Int, _ random: inout SeededRandom, on fuzz: ConversionFuzzState) throws(FuzzFailure) {
        let input = fuzz.values.make(&random)
        report.swiftMade += 1
        do {
            let back = try fuzz.state.call(fuzz.identity, [input.value])
            guard input.faults.isEmpty else {
                throw failure(index, "pushed although it holds \(input.faults.map(\.rawValue))", input.value)
            }
            guard back.count == 1, BridgeSameness.same(back[0], BridgeSameness.normalised(input.value)) else {
                throw failure(index, "came back from Lua as \(back)", input.value)
            }
            report.roundTripped += 1
        } catch let error as LuaError {
            try expectRefusal(error, for: input.faults, index, input.value)
        } catch let error as FuzzFailure {
            throw error
        } catch {
            throw failure(index, "threw \(error)", input.value)
        }
    }

    private func luaMade(_ index: Int, _ random: inout SeededRandom, on fuzz: ConversionFuzzState) throws(FuzzFailure) {
        let luaSeed = LuaValue.integer(Int64(bitPattern: random.next()))
        report.luaMade += 1
        do {
            try fuzz.state.call(fuzz.build, [luaSeed, .integer(Int64(fuzz.maximumDepth)), .integer(Int64(fuzz.memoryRoom))])
        } catch {
            // Only the string past the limit may fail to be made.
            return try expectRefusal(error, for: [.pastMemoryLimit], index, luaSeed)
        }
        let (census, cyclic) = try self.census(index, fuzz, luaSeed)
        var faults: Set<BridgeFault> = cyclic ? [.cyclic] : []
        if census.depth >= fuzz.maximumDepth { faults.insert(.tooDeep) }
        let taken: [LuaValue]
        do {
            taken = try fuzz.state.call(fuzz.take)
        } catch {
            return try expectRefusal(error, for: faults, index, luaSeed)
        }
        guard faults.isEmpty else { throw failure(index, "converted although \(faults.map(\.rawValue))", luaSeed) }
        guard taken.count == 1, BridgeCensus(taken[0]) == census else {
            throw failure(index, "Lua counted \(census), Swift got \(taken.map { BridgeCensus($0) })", luaSeed)
        }
        report.converted += 1
        try pushBack(taken[0], deeperThanPushed: census.depth >= fuzz.state.maximumPushedTableDepth, index, fuzz, luaSeed)
    }

    /// A value converted from Lua goes back the same, unless Swift may not push it so deep.
    private func pushBack(
        _ value: LuaValue, deeperThanPushed: Bool, _ index: Int, _ fuzz: ConversionFuzzState, _ luaSeed: LuaValue
    ) throws(FuzzFailure) {
        do {
            let back = try fuzz.state.call(fuzz.identity, [value])
            guard !deeperThanPushed else { throw failure(index, "pushed deeper than the state may push", luaSeed) }
            guard back.count == 1, BridgeSameness.same(back[0], value) else {
                throw failure(index, "a Lua-made value did not come back the same: \(back)", luaSeed)
            }
        } catch let error as FuzzFailure {
            throw error
        } catch {
            try expectRefusal(error, for: deeperThanPushed ? [.tooDeep] : [], index, luaSeed)
        }
    }

    private func census(_ index: Int, _ fuzz: ConversionFuzzState, _ luaSeed: LuaValue) throws(FuzzFailure) -> (BridgeCensus, Bool) {
        let reported: [LuaValue]
        do {
            reported = try fuzz.state.call(fuzz.describe)
        } catch {
            throw failure(index, "describe() failed: \(error)", luaSeed)
        }
        guard let report = reported.first, let census = BridgeCensus(lua: report) else {
            throw failure(index, "describe() returned \(reported)", luaSeed)
        }
        return (census, report["cyclic"] == true)
    }

    /// A refusal is clean when one of the input's faults explains it: its kind, its words.
    private func expectRefusal(_ error: LuaError, for faults: Set<BridgeFault>, _ index: Int, _ input: LuaValue) throws(FuzzFailure) {
        guard let fault = faults.first(where: { $0.kind == error.kind && error.message.contains($0.rawValue) }) else {
            throw failure(index, "refused with \(error.kind) '\(error.message)', expected \(faults.map(\.rawValue))", input)
        }
        report.refused[fault, default: 0] += 1
    }

    private func expectRefusal(_ error: any Error, for faults: Set<BridgeFault>, _ index: Int, _ input: LuaValue) throws(FuzzFailure) {
        guard let error = error as? LuaError else { throw failure(index, "threw \(error)", input) }
        try expectRefusal(error, for: faults, index, input)
    }

    private func stillUsable(_ index: Int, _ fuzz: ConversionFuzzState) throws(FuzzFailure) {
        guard fuzz.state.stackTop == 0 else {
            throw failure(index, "the stack holds \(fuzz.state.stackTop) values after the input", .nil)
        }
        do {
            guard try fuzz.state.run("return 1 + 1", chunkName: "=after") == [2] else {
                throw failure(index, "the state runs chunks wrong after the input", .nil)
            }
        } catch let error as FuzzFailure {
            throw error
        } catch {
            throw failure(index, "the state cannot run a chunk after the input: \(error)", .nil)
        }
    }

    private func failure(_ index: Int, _ problem: String, _ input: LuaValue) -> FuzzFailure {
        FuzzFailure(fuzzer: "ConversionFuzz", seed: seed, index: index, problem: problem, input: "\(input)")
    }
}

/// What a conversion run saw.
public struct ConversionFuzzReport: CustomStringConvertible {
    public var swiftMade = 0, roundTripped = 0, luaMade = 0, converted = 0
    /// Refusals, by the fault that explained them.
    public var refused: [BridgeFault: Int] = [:]

    public var description: String {
        let causes = BridgeFault.allCases.map { "\($0.rawValue) \(refused[$0, default: 0])" }.joined(separator: ", ")
        return "\(swiftMade) made in Swift (\(roundTripped) came back the same), \(luaMade) made in Lua "
            + "(\(converted) converted); refused cleanly: \(causes)"
    }
}

/// One state the conversion fuzzer runs on, with its functions.
final class ConversionFuzzState {
    let state: LuaState
    let maximumDepth: Int
    /// Bytes the state may still take beyond what it holds when the run starts.
    let memoryRoom = 32 << 20
    let values: ConversionValues
    let identity: LuaValue
    let build: LuaValue, describe: LuaValue, take: LuaValue

    init(maximumDepth: Int) throws(LuaError) {
        state = try LuaState()
        state.maximumTableDepth = maximumDepth
        self.maximumDepth = maximumDepth
        values = ConversionValues(maximumDepth: state.maximumPushedTableDepth, memoryRoom: memoryRoom)
        identity = try state.load("return ...", chunkName: "=identity")
        let functions = try state.call(state.load(bytes: PackageResources.LuaMadeValues_lua, chunkName: "=LuaMadeValues.lua"))
        guard functions.count == 3 else { throw LuaError(.usage, "LuaMadeValues.lua returned \(functions.count) values") }
        (build, describe, take) = (functions[0], functions[1], functions[2])
        state.memoryLimit = state.memoryUsed + memoryRoom
    }
}
