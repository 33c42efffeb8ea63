import Portolan
import Testing

/// Reading a context value without a `switch`: each accessor answers for its own case, numbers
/// by value (as they compare), and nil for any other case.
@Suite struct ContextValueAccessorTests {
    @Test func stringsAndBooleansAnswerOnlyForTheirOwnCase() {
        #expect(ContextValue.string("42").stringValue == "42")
        #expect(ContextValue.string("42").intValue == nil)
        #expect(ContextValue.string("true").boolValue == nil)
        #expect(ContextValue.boolean(false).boolValue == false)
        #expect(ContextValue.boolean(true).stringValue == nil)
        #expect(ContextValue.boolean(true).intValue == nil)
        #expect(ContextValue.integer(0).boolValue == nil)
        #expect(ContextValue.integer(7).stringValue == nil)
    }

    @Test func numbersReadByValueWhicheverCaseHoldsThem() {
        #expect(ContextValue.integer(42).intValue == 42)
        #expect(ContextValue.number(42.0).intValue == 42)
        #expect(ContextValue.number(42.5).intValue == nil)
        #expect(ContextValue.number(.nan).intValue == nil)
        #expect(ContextValue.number(1e300).intValue == nil)
        #expect(ContextValue.integer(.min).intValue == .min)
        #expect(ContextValue.integer(42).doubleValue == 42.0)
        #expect(ContextValue.number(42.5).doubleValue == 42.5)
        #expect(ContextValue.string("42.5").doubleValue == nil)
        #expect(ContextValue.boolean(true).doubleValue == nil)
    }

    @Test func anEntrysContextReadsInOneExpression() {
        let entry = Entry("movie", context: ["id": 42, "title": "Heat", "kids": false, "rating": 8.5])
        #expect(entry.context["id"]?.intValue == 42)
        #expect(entry.context["title"]?.stringValue == "Heat")
        #expect(entry.context["kids"]?.boolValue == false)
        #expect(entry.context["rating"]?.doubleValue == 8.5)
        #expect(entry.context["missing"]?.intValue == nil)
    }
}
