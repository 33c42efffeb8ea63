import Portolan
import Testing

@Suite struct EntryTests {
    @Test func canonicalTextSortsKeysAndDropsIntegralDecimals() {
        let entry = Entry("book", context: ["lang": "en", "id": .number(42.0)])
        #expect(entry.description == "book {id=42,lang=en}")
    }

    @Test func emptyContextIsOmitted() {
        #expect(Entry("node8").description == "node8")
        #expect(Entry("node8", context: [:]) == Entry("node8"))
    }

    @Test func numbersCompareByValueAcrossIntegerAndFloat() {
        #expect(Entry("book", context: ["id": 42]) == Entry("book", context: ["id": 42.0]))
        #expect(Entry("book", context: ["id": 42]) != Entry("book", context: ["id": 42.5]))
        #expect(Set([Entry("book", context: ["id": 42]), Entry("book", context: ["id": 42.0])]).count == 1)
    }

    @Test func differentKindsAreNotEqual() {
        #expect(ContextValue.string("1") != .integer(1))
        #expect(ContextValue.boolean(true) != .integer(1))
    }

    @Test func ambiguousStringsAreQuoted() {
        let entry = Entry("search", context: ["q": "a,b", "empty": "", "n": "42", "flag": "true", "plain": "x"])
        #expect(entry.description == #"search {empty="",flag="true",n="42",plain=x,q="a,b"}"#)
    }

    @Test func valuesPrintPlainly() {
        #expect(ContextValue.boolean(false).description == "false")
        #expect(ContextValue.number(2.5).description == "2.5")
        #expect(ContextValue.integer(-7).description == "-7")
    }

    @Test func nonFiniteNumbersAreMalformed() {
        #expect(!Entry("a", context: ["x": .number(.nan)]).isWellFormed)
        #expect(!Entry("a", context: ["x": .number(.infinity)]).isWellFormed)
        #expect(!Entry("").isWellFormed)
        #expect(Entry("a", context: ["x": 1.5]).isWellFormed)
    }

    @Test func instructionsHaveCanonicalText() {
        #expect(Instruction.enter(Entry("book", context: ["id": 42])).description == "enter book {id=42}")
        #expect(Instruction.leave("node8").description == "leave node8")
        #expect(Instruction.switch("switchNode1", to: "node1").description == "switch switchNode1 -> node1")
    }
}
