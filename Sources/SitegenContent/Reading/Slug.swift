import Foundation
import SitegenSupport
import SitegenYAML

public struct Slug: FrontMatterValue, Hashable, Comparable, Sendable, CustomStringConvertible {
    public var text: String

    public static var expectation: String { "lowercase letters, digits and hyphens like lovely-breakfast" }


    public init(node: YAMLNode) throws(ValueProblem) {
        guard let scalar = node.scalar else { throw .mismatch }
        guard Slug.isValid(scalar.text) else {
            throw .invalid("must be lowercase letters, digits and hyphens like lovely-breakfast, found '\(scalar.text)'")
        }
        text = scalar.text
    }

    public init?(validating text: String) {
        guard Slug.isValid(text) else { return nil }
        self.text = text
    }

    /// A slug made from any text: letters and digits of every script kept in lowercase,
    /// accents dropped from Latin letters (`Crème` → `creme`), emoji kept as they are
    /// (`🥚`), anything else a hyphen.
    public init?(making text: String, memo: ReadingMemo? = nil) {
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            guard let made = Slug.textMade(fromASCII: text) else { return nil }
            self.text = made
            return
        }
        // Made once per text of a build when it has a memo: the same tags and meals (點心,
        // Crème brûlée) come back in article after article.
        guard let made = memo.map({ $0.slugs.value(for: text, making: Slug.textMade(fromUnicode:)) }) ?? Slug.textMade(fromUnicode: text) else { return nil }
        self.text = made
    }
    private static let posix = Locale(identifier: "en_US_POSIX")

    /// What `init?(making:)` makes of text that is not all ASCII, character by character.
    private static func textMade(fromUnicode text: String) -> String? {
        var result = ""
        var pendingHyphen = false
        for character in text {
            let piece: String
            if character.isASCII {
                piece = character.isLetter || character.isNumber ? String(character).lowercased() : ""
            } else if Slug.isEmoji(character) {
                piece = String(character)
            } else if character.isLetter || character.isNumber {
                let folded = String(character).folding(options: [.diacriticInsensitive, .widthInsensitive], locale: Slug.posix)
                piece = folded.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } ? folded.lowercased() : String(character).lowercased()
            } else {
                piece = ""
            }
            if piece.isEmpty {
                if character != "'" && character != "’" { pendingHyphen = true }
                continue
            }
            if pendingHyphen, !result.isEmpty { result += "-" }
            pendingHyphen = false
            result += piece
        }
        guard !result.isEmpty, result.count <= 200 else { return nil }
        return result
    }

    /// What `init?(making:)` makes of ASCII text, byte by byte (tags and file names are
    /// nearly always ASCII, and a character at a time costs a string each).
    private static func textMade(fromASCII text: String) -> String? {
        var result: [UInt8] = []
        result.reserveCapacity(text.utf8.count)
        var pendingHyphen = false
        for byte in text.utf8 {
            let kept: UInt8
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): kept = byte
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): kept = byte + 32
            case UInt8(ascii: "'"): continue
            default:
                pendingHyphen = true
                continue
            }
            if pendingHyphen, !result.isEmpty { result.append(UInt8(ascii: "-")) }
            pendingHyphen = false
            result.append(kept)
        }
        guard !result.isEmpty, result.count <= 200 else { return nil }
        return String(decoding: result, as: UTF8.self)
    }

    /// An emoji, with its modifiers, joiners and selectors (`👩‍🍳`, `🇭🇰`, `🥚`): kept in a
    /// slug as a letter of another script is, as Hugo keeps it. None of its scalars is a
    /// separator or a dot of a path.
    public static func isEmoji(_ character: Character) -> Bool {
        let scalars = character.unicodeScalars
        guard let first = scalars.first, !first.isASCII,
              scalars.contains(where: { $0.properties.isEmojiPresentation || $0.value == 0xFE0F }) else { return false }
        return scalars.allSatisfy { scalar in
            scalar.properties.isEmoji || scalar.value == 0x200D || scalar.value == 0xFE0F || scalar.value == 0x20E3 || (0xE0020...0xE007F).contains(scalar.value)
        }
    }

    /// Lowercase letters of any script, digits, emoji and single hyphens between them:
    /// nothing that could make a path leave its folder.
    public static func isValid(_ text: String) -> Bool {
        // ASCII, over the bytes in place: every cached article, tag and meal checks its
        // slug again on a rebuild, and neither a string per character nor the UTF-8 view
        // a byte at a time is needed for it.
        var contiguous = text
        let ascii = contiguous.withUTF8 { bytes -> Bool? in
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
            return !bytes.isEmpty && bytes.count <= 200 && bytes.first != UInt8(ascii: "-") && bytes.last != UInt8(ascii: "-")
                && bytes.allSatisfy { $0 == UInt8(ascii: "-") || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
        }
        if let ascii { return ascii }
        return !text.isEmpty && text.count <= 200 && !text.hasPrefix("-") && !text.hasSuffix("-")
            && text.allSatisfy { $0 == "-" || (($0.isLetter || $0.isNumber) && String($0).lowercased() == String($0) && !$0.isWhitespace) || isEmoji($0) }
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.text < rhs.text }
    public var description: String { text }
}

/// A name that groups articles, such as a meal or a tag, with the slug of its page.
