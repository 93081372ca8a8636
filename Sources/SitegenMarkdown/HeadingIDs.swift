import CCMark
import SitegenSupport
import Foundation

/// `id`s for headings, made from their text and unique within one document, so that
/// `#fragment` links can point at them.
struct HeadingIDs {
    private var used: [String: Int] = [:]

    mutating func next(for text: String) -> String {
        var id = HeadingIDs.asciiID(text) ?? HeadingIDs.madeByCharacters.value(for: text, making: HeadingIDs.characterID)
        if id.isEmpty { id = "section" }
        // One look-up for an id not used yet, nearly every heading's.
        guard var count = used.updateValue(1, forKey: id) else { return id }
        // A numbered id can be another heading's own ("Verdict" twice, then "Verdict 1"):
        // the next number free is taken, and kept as used.
        var numbered: String
        repeat {
            numbered = "\(id)-\(count)"
            count += 1
        } while used[numbered] != nil
        used[id] = count
        used[numbered] = 1
        return numbered
    }

    /// Ids of headings that are not ASCII, by text: "Why Australia Café?" comes back in
    /// article after article.
    private static let madeByCharacters = TextMemo<String>(limit: 10_000)

    /// Letters and digits of any script, lowercased, runs of anything else as one hyphen;
    /// apostrophes are dropped ("Don’t" makes "dont").
    static func characterID(_ text: String) -> String {
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
        return id
    }

    /// `characterID` of ASCII text, byte by byte (letters and digits are then single
    /// bytes), and of ASCII text with the punctuation smart quotes write (’ ‘ “ ” – — …),
    /// each a character of its own that is neither letter nor digit: without them nearly
    /// every heading with an apostrophe would go character by character. Nil for any other
    /// text.
    static func asciiID(_ text: String) -> String? {
        var text = text
        return text.withUTF8 { bytes -> String? in
            var id: [UInt8] = []
            id.reserveCapacity(bytes.count)
            var pendingHyphen = false
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                if byte >= 0x80 {
                    // U+2013 – U+2026 are E2 80 93 – E2 80 A6; what follows is ASCII or another
                    // of them, so none of these extends a character before or after it.
                    guard byte == 0xE2, index + 1 < bytes.count, bytes[index] == 0x80 else { return nil }
                    switch bytes[index + 1] {
                    case 0x99: break
                    case 0x93, 0x94, 0x98, 0x9C, 0x9D, 0xA6: pendingHyphen = true
                    default: return nil
                    }
                    index += 2
                    continue
                }
                let lowered = (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
                if (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(lowered) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(lowered) {
                    if pendingHyphen, !id.isEmpty { id.append(UInt8(ascii: "-")) }
                    pendingHyphen = false
                    id.append(lowered)
                } else if byte != UInt8(ascii: "'") {
                    pendingHyphen = true
                }
            }
            return String(decoding: id, as: UTF8.self)
        }
    }
}

extension String {
    func trimmingSpaces() -> String {
        var characters = Substring(self)
        while let first = characters.first, first.isWhitespace { characters.removeFirst() }
        while let last = characters.last, last.isWhitespace { characters.removeLast() }
        return String(characters)
    }
}
