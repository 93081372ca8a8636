@testable import SitegenMarkdown
import Testing

@Suite("Heading ids")
struct HeadingIDTests {
    @Test func asciiHeadingsGetTheIDsCharactersWouldMake() {
        // The rule a character at a time, as for any heading that is not ASCII.
        func reference(_ text: String) -> String {
            var id = ""
            var pendingHyphen = false
            for character in text.lowercased() {
                if character.isLetter || character.isNumber {
                    if pendingHyphen, !id.isEmpty { id += "-" }
                    pendingHyphen = false
                    id.append(character)
                } else if character != "'" && character != "’" {
                    pendingHyphen = true
                }
            }
            return id.isEmpty ? "section" : id
        }
        var generator = SystemRandomNumberGenerator()
        let pieces = ["Toast", "tea", "A", "z", "0", "42", " ", "  ", "-", "'", "&", "?", "_", ".", "\r\n", "\t", "/", "~"]
        for _ in 0..<3_000 {
            let text = (0..<Int.random(in: 0...8, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            var ids = HeadingIDs()
            #expect(ids.next(for: text) == reference(text), "\(text.debugDescription)")
        }
        var ids = HeadingIDs()
        #expect(ids.next(for: "Café & Crème") == "café-crème")
        #expect(ids.next(for: "Café & Crème") == "café-crème-1")
        #expect(ids.next(for: "Don’t stop") == "dont-stop")
    }
}
