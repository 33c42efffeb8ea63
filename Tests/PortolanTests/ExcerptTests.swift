import Portolan
import Testing

/// The one rule for quoting a text someone gave (a URL, a path) in a message.
@Suite struct ExcerptTests {
    @Test func aShortTextIsQuotedWhole() {
        #expect(Excerpt.of("/movies/42") == "/movies/42")
        let exactly = String(repeating: "a", count: Excerpt.limit)
        #expect(Excerpt.of(exactly) == exactly)
        // Over the limit in bytes, within it in scalars: whole.
        let accented = String(repeating: "é", count: 150)
        #expect(Excerpt.of(accented) == accented)
    }

    @Test func aLongTextShowsItsStartAndItsLength() {
        let url = "/" + String(repeating: "a", count: 99_999)
        let shown = Excerpt.of(url)
        #expect(shown == "/" + String(repeating: "a", count: Excerpt.limit - 1) + "…(100000 bytes)")
    }

    @Test func oneCharacterOfManyCombiningMarksIsCutToo() {
        // A single grapheme of 50,001 scalars: cut by scalars, not characters.
        let text = "a" + String(repeating: "\u{301}", count: 50_000)
        let shown = Excerpt.of(text)
        #expect(shown.unicodeScalars.count < Excerpt.limit + 20)
        #expect(shown.hasSuffix("…(100001 bytes)"))
    }
}
