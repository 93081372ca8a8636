@testable import SitegenMarkdown
import Testing

@Suite("Heading ids")
struct HeadingIDTests {
    @Test func asciiHeadingsGetTheIDsCharactersWouldMake() {
        var generator = SystemRandomNumberGenerator()
        let pieces = ["Toast", "tea", "A", "z", "0", "42", " ", "  ", "-", "'", "&", "?", "_", ".", "\r\n", "\t", "/", "~",
                      "’", "‘", "“", "”", "–", "—", "…"]
        for _ in 0..<3_000 {
            let text = (0..<Int.random(in: 0...8, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            #expect(HeadingIDs.asciiID(text) == HeadingIDs.characterID(text), "\(text.debugDescription)")
        }
        for other in ["Café", "a\u{2019}\u{301}b", "\u{2020}", "x\u{E2}", "‐", "\u{2027}"] {
            #expect(HeadingIDs.asciiID(other) == nil, "\(other.debugDescription)")
        }
        var ids = HeadingIDs()
        #expect(ids.next(for: "Toast & Tea") == "toast-tea")
        #expect(ids.next(for: "Café & Crème") == "café-crème")
        #expect(ids.next(for: "Café & Crème") == "café-crème-1")
        #expect(ids.next(for: "Don’t stop") == "dont-stop")
        #expect(ids.next(for: "?!") == "section")
    }

    @Test func numbersARepeatedHeadingPastIDsOtherHeadingsHave() {
        var ids = HeadingIDs()
        let made = ["Verdict", "Verdict 1", "Verdict", "Verdict", "Verdict 2", "Verdict 1"].map { ids.next(for: $0) }
        #expect(made == ["verdict", "verdict-1", "verdict-2", "verdict-3", "verdict-2-1", "verdict-1-1"])
        #expect(Set(made).count == made.count)
    }
}
