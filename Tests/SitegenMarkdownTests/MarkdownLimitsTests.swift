@testable import SitegenMarkdown
import Testing

@Suite("Markdown limits")
struct MarkdownLimitsTests {
    private func refusal(_ text: String) -> MarkdownLimits.Refusal? {
        MarkdownLimits.refusal(of: Array(text.utf8))
    }

    @Test func refusesAParagraphOfTooManyBrackets() {
        let found = refusal("# Dinner\n\n" + String(repeating: "![[]()", count: 80_000))
        #expect(found == MarkdownLimits.Refusal(line: 3, column: 1502, message: "this paragraph has more than 500 '[': a paragraph may have at most 500 links and images; put blank lines between its parts (docs/content.md#limits)"))
    }

    @Test func countsBracketsParagraphByParagraph() {
        let paragraph = String(repeating: "![[]()", count: 250)
        #expect(refusal(Array(repeating: paragraph, count: 100).joined(separator: "\n\n")) == nil)
        #expect(refusal(Array(repeating: paragraph, count: 100).joined(separator: "\n")) != nil)
        // A tight list: each item is a paragraph of its own.
        let items = (0..<2_000).map { "- [Shop \($0)](https://example.org/\($0))" }.joined(separator: "\n")
        #expect(refusal(items) == nil)
        let numbered = (1...2_000).map { "\($0). [Shop](https://example.org/)" }.joined(separator: "\n")
        #expect(refusal(numbered) == nil)
        // A numbered line under text goes on with the text's paragraph; so does a line
        // indented four spaces, which is not a list item there.
        #expect(refusal("Shops:\n" + (2...600).map { "\($0). [Shop](https://example.org/)" }.joined(separator: "\n"))?.line == 502)
        #expect(refusal("Shops:\n" + (2...600).map { _ in "    - [Shop](https://example.org/)" }.joined(separator: "\n"))?.line == 502)
    }

    @Test func columnsCountCharacters() {
        #expect(refusal("é" + String(repeating: "[", count: 501))?.column == 502)
    }

    @Test func refusesATextOverFourMegabytes() {
        #expect(refusal(String(repeating: "Toast. ", count: 700_000)) == MarkdownLimits.Refusal(line: 1, column: 1, message: "the text is 4.9 MB, more than the 4 MB a file's text may have: split it into several files (docs/content.md#limits)"))
        #expect(refusal(String(repeating: "Toast. ", count: 500_000)) == nil)
    }
}
