import Lua
import Portolan
@testable import PortolanLua
@testable import PortolanTools
import Testing
import TestSupport

/// The one writer of generated Lua (`LuaSource`, issue 34), used by `explore`'s repros and `:record`:
/// random names and values always give text that compiles and reads back as the same values. Before,
/// `:record` wrote a context key that is a keyword bare (`{ end = 1 }`, which does not compile),
/// `math.mininteger` was written so that Lua read a float, NaN and the infinities were written as 0,
/// and a file name holding a line feed ended a comment and became code in the repro.
@Suite struct LuaSourceTests {
    static let keys = ["id", "end", "nil", "and", "_", "a1", "1a", "a b", "", "é", "line\nbreak", "q\"uote", "\\", "\0", "goto"]

    static func randomString(_ random: inout SeededRandom) -> String {
        let pieces = ["a", "Z", " ", "\"", "\\", "\n", "\r", "\t", "\0", "\u{7F}", "é", "日本", "]]", "--", "\u{2028}", "9"]
        return (0..<random.below(6)).map { _ in random.pick(pieces) ?? "" }.joined()
    }

    static func randomValue(_ random: inout SeededRandom) -> ContextValue {
        let integers: [Int64] = [0, -1, 1, 42, .min, .max, .min + 1]
        let numbers: [Double] = [0.5, -0.0, 5.0, 1e308, -1e-308, .infinity, -.infinity, 0.1, 1 / 3]
        switch random.below(4) {
        case 0: return .string(randomString(&random))
        case 1: return .integer(random.pick(integers) ?? 0)
        case 2: return .number(random.pick(numbers) ?? 0)
        default: return .boolean(random.chance(0.5))
        }
    }

    static func randomEntry(_ random: inout SeededRandom) -> Entry {
        var context: Context = [:]
        for _ in 0..<random.below(4) { context[random.pick(keys) ?? "id"] = randomValue(&random) }
        return Entry(random.chance(0.3) ? randomString(&random) : (random.pick(keys) ?? "id"), context: context)
    }

    /// Reads `text` back with Lua itself, as a generated file is read.
    static func evaluate(_ text: String) throws -> LuaValue {
        let values = try LuaState().run("return " + text, chunkName: "=generated.lua")
        return values.first ?? .nil
    }

    @Test func randomDestinationsCompileAndReadBackAsTheyWere() throws {
        var random = SeededRandom(seed: 34)
        for round in 0..<300 {
            let entries = (0..<(1 + random.below(3))).map { _ in Self.randomEntry(&random) }
            let destination: Destination = switch random.below(3) {
            case 0: .path(entries)
            case 1: .push(entries[0], launch: nil)
            default: .live(entries[0].id, context: entries[0].context, occurrence: 1 + random.below(3))
            }
            let text = LuaSource.destination(destination)
            let read = try Destination(lua: try Self.evaluate(text))
            #expect(read == destination, "round \(round): \(text)")
        }
    }

    @Test func numbersReadBackWithTheirTypeAndValue() throws {
        #expect(try Self.evaluate(LuaSource.integer(.min)) == .integer(.min))
        #expect(try Self.evaluate(LuaSource.integer(.max)) == .integer(.max))
        #expect(try Self.evaluate(LuaSource.number(5)) == .number(5))
        #expect(try Self.evaluate(LuaSource.number(.infinity)) == .number(.infinity))
        #expect(try Self.evaluate(LuaSource.number(-.infinity)) == .number(-.infinity))
        guard case .number(let nan) = try Self.evaluate(LuaSource.number(.nan)) else {
            Issue.record("NaN did not read back as a float")
            return
        }
        #expect(nan.isNaN)
        #expect(try Self.evaluate(LuaSource.json(.object(["end": .integer(.min), "ok": .array([.null, .boolean(true)])])))
            == .table([.string("end"): .integer(.min), .string("ok"): .table([.integer(2): .boolean(true)])]))
    }

    @Test func aKeywordKeyIsBracketedAndANameIsBare() {
        #expect(LuaSource.context(["end": .integer(1), "id": .integer(2)]) == #"{ ["end"] = 1, id = 2 }"#)
        #expect(LuaSource.isName("_a1") && !LuaSource.isName("1a") && !LuaSource.isName("é") && !LuaSource.isName(""))
    }

    @Test func aCommentStaysOneLineWhateverItsTextHolds() throws {
        let comment = LuaSource.comment("Run: portolan test --app shop\nos.exit(1)\r--[[.lua THIS_FILE")
        #expect(!comment.contains("\n") && !comment.contains("\r"))
        #expect(try LuaState().run(comment + "\nreturn 1", chunkName: "=generated.lua") == [1])
    }
}
