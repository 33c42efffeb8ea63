import Testing
@testable import Lua

/// Values go into Lua and come back through an identity function.
@Suite struct LuaValueTests {
    let state: LuaState
    let identity: LuaValue

    init() throws {
        state = try LuaState()
        identity = try state.load("return ...", chunkName: "identity")
    }

    func roundTrip(_ value: LuaValue) throws -> LuaValue {
        let results = try state.call(identity, [value])
        #expect(state.stackTop == 0)
        return results.first ?? .nil
    }

    @Test func scalarsRoundTrip() throws {
        for value: LuaValue in [nil, true, false, 0, 42, -7, .integer(.max), .integer(.min), 1.5, -0.25, "", "hé ✓"] {
            #expect(try roundTrip(value) == value)
        }
    }

    @Test func integersAndFloatsStayDistinct() throws {
        #expect(try state.run("return 3")[0] == .integer(3))
        #expect(try state.run("return 3.0")[0] == .number(3.0))
        #expect(try state.run("return 7 // 2, 7 / 2") == [.integer(3), .number(3.5)])
        let type = try state.load("local x = ... return math.type(x)")
        #expect(try state.call(type, [.integer(2)]) == ["integer"])
        #expect(try state.call(type, [.number(2)]) == ["float"])
    }

    @Test func stringsAreBytes() throws {
        let withNul = LuaValue.string("a\u{0}b")
        #expect(try roundTrip(withNul) == withNul)
        #expect(try state.call(state.load("return #(...)"), [withNul]) == [3])

        let invalid = LuaValue.bytes([0x66, 0xFF, 0x00, 0xC3])
        #expect(try roundTrip(invalid) == invalid)
        #expect(try state.run(#"return "\xff\xfe""#) == [.bytes([0xFF, 0xFE])])
        #expect(try state.run(#"return "\xff\xfe""#)[0].stringValue == "\u{FFFD}\u{FFFD}")
    }

    @Test func nestedTablesRoundTrip() throws {
        let value: LuaValue = [
            "name": "movie",
            "ids": [1, 2, 3],
            "nested": ["deeper": ["flag": true, 2.5: "float key"]],
            1: "first",
        ]
        #expect(try roundTrip(value) == value)
        #expect(try roundTrip(value)["ids"].arrayValue == [1, 2, 3])
    }

    @Test func tablesFromLuaBecomeDictionariesAndArrays() throws {
        let results = try state.run("return { 10, 20, x = { y = 'z' }, [3.0] = 'three' }")
        try #require(results.count == 1)
        let result = results[0]
        #expect(result[1] == 10)
        #expect(result[3] == "three")   // Lua normalises the float key 3.0 to the integer 3
        #expect(result["x"]["y"] == "z")
        #expect(try state.run("return { 'a', 'b' }")[0].arrayValue == ["a", "b"])
        #expect(try state.run("return {}")[0].arrayValue == [])
        #expect(try state.run("return { 'a', nil, 'c' }")[0].arrayValue == nil)
    }

    @Test func cyclicTableIsAConversionErrorNotACrash() throws {
        #expect {
            try state.run("local t = {} t.self = t return t")
        } throws: { ($0 as? LuaError)?.kind == .conversion }
        #expect(state.stackTop == 0)
        // A table reached twice without a cycle is fine.
        let shared = try state.run("local s = { 1 } return { a = s, b = s }")[0]
        #expect(shared["a"] == shared["b"])
        #expect(try state.run("return 1") == [1])
    }

    @Test func deepTableIsBounded() throws {
        state.maximumTableDepth = 50
        #expect {
            try state.run("local t = {} for i = 1, 100 do t = { t } end return t")
        } throws: { ($0 as? LuaError)?.kind == .conversion }
        #expect(state.stackTop == 0)
        #expect(try state.run("local t = {} for i = 1, 40 do t = { t } end return t").count == 1)
    }

    /// Found by the conversion fuzzer: a state allowed tables deeper than the C decoder takes (a
    /// host's, 2,008) refused a Swift value 1,001 tables deep as a runtime error ("encoded values
    /// nested too deeply"); it is the conversion error every other too-deep table is.
    @Test func swiftPushesAtMostAThousandTablesDeepWhateverTheStateReads() throws {
        state.maximumTableDepth = 2_008
        #expect(state.maximumPushedTableDepth == 1_000)
        func chain(_ levels: Int) -> LuaValue {
            (1..<levels).reduce(LuaValue.array([1])) { inner, _ in .array([inner]) }
        }
        #expect(try roundTrip(chain(1_000)) == chain(1_000))
        #expect {
            try roundTrip(chain(1_001))
        } throws: { error in
            (error as? LuaError)?.kind == .conversion && (error as? LuaError)?.message == "table nesting deeper than 1000"
        }
        #expect(state.stackTop == 0)
        // Lua's own tables are read as deep as the state says.
        #expect(try state.run("local t = {} for i = 1, 2000 do t = { t } end return t").count == 1)
    }

    @Test func nilAndNaNKeysFromSwiftAreErrors() throws {
        #expect(throws: LuaError.self) { try roundTrip(.table([.nil: 1])) }
        #expect(throws: LuaError.self) { try roundTrip(.table([.number(.nan): 1])) }
        #expect(state.stackTop == 0)
    }

    @Test func globals() throws {
        try state.setGlobal("answer", 42)
        #expect(try state.global("answer") == 42)
        #expect(try state.run("return answer + 1") == [43])
        #expect(try state.global("missing") == .nil)
        #expect(state.stackTop == 0)
    }

    @Test func functionsComeBackAsReferences() throws {
        let value = try state.run("return function(a, b) return a .. b end")[0]
        guard case .function(let function) = value else {
            Issue.record("expected a function, got \(value)")
            return
        }
        #expect(try function.call("x", "y") == ["xy"])
        #expect(try roundTrip(value) == value)   // same Lua object, equal references
    }
}
