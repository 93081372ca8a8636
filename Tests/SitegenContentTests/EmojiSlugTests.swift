import Foundation
import SitegenContent
import SitegenSupport
import SitegenYAML
import Testing

@Suite("Emoji in addresses")
struct EmojiSlugTests {
    private func label(_ text: String) throws -> Label {
        try Label(node: YAMLNode(.scalar(YAMLScalar(text, style: .quoted)), at: SourceLocation(path: "x", line: 1, column: 1)))
    }

    /// An emoji is kept as it is, whole with its joiners, modifiers and flags, as a letter
    /// of another script is; the text around it as before.
    @Test func keepsAnEmojiAsALetterOfItsOwn() throws {
        #expect(try label("🥚").slug.text == "🥚")
        #expect(try label("🥚 tarts").slug.text == "🥚-tarts")
        #expect(try label("Egg 🥚!").slug.text == "egg-🥚")
        #expect(try label("👩‍🍳").slug.text == "👩‍🍳")
        #expect(try label("👍🏽").slug.text == "👍🏽")
        #expect(try label("🇭🇰 food").slug.text == "🇭🇰-food")
        #expect(try label("☕️").slug.text == "☕️")
        #expect(try label("點心 🥟").slug.text == "點心-🥟")
        // A slug written with one reads back, as the cache reads slugs.
        for text in ["🥚", "egg-🥚", "👩‍🍳", "🇭🇰-food", "☕️"] {
            #expect(Slug(validating: text)?.text == text)
        }
    }

    /// Symbols that are not emoji still make no address, and nothing a slug keeps can
    /// leave its folder.
    @Test func makesNoAddressOfOtherSymbols() throws {
        for text in ["!!!", "— —", "™", "©", "#", "*", "→"] {
            #expect(throws: ValueProblem.self) { try label(text) }
        }
        #expect(Slug(validating: "🥚/..") == nil)
        #expect(Slug(validating: "🥚.") == nil)
        #expect(Slug(validating: "-🥚") == nil)
        #expect(Slug(making: "🥚/../x")?.text == "🥚-x")
    }
}
