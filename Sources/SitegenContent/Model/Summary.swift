import Foundation
import SitegenMarkdown
import SitegenSupport
import SitegenYAML

public enum Summary {
    /// The first paragraph, cut on a word near 200 characters.
    public static func make(from text: String, limit: Int = 200) -> String {
        var collapsed = collapsingWhitespace(text)
        guard collapsed.utf8.count > limit else { return collapsed }
        if let cut = collapsed.withUTF8({ asciiCut($0, limit: limit) }) { return cut }
        // Counting the characters of a long paragraph only as far as the limit.
        guard let limitIndex = collapsed.index(collapsed.startIndex, offsetBy: limit, limitedBy: collapsed.endIndex),
              limitIndex != collapsed.endIndex
        else { return collapsed }
        let cut = collapsed[..<limitIndex]
        let end = cut.lastIndex(of: " ") ?? cut.endIndex
        return trimmingPunctuation(cut[..<end]) + "…"
    }

    /// `text` without the spaces and punctuation a cut leaves at its ends, scalar by scalar
    /// as Foundation's `trimmingCharacters(in:)` trims, without going through a character
    /// set.
    private static func trimmingPunctuation(_ text: Substring) -> String {
        func trimmed(_ scalar: Unicode.Scalar) -> Bool {
            switch scalar {
            case " ", ",", ";", ":", ".", "-", "\u{2013}", "\u{2014}": true
            default: false
            }
        }
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !trimmed($0) }), let last = scalars.lastIndex(where: { !trimmed($0) }) else { return "" }
        return String(scalars[first...last])
    }

    /// The cut of ASCII text longer than `limit`, made on its bytes, which are its
    /// characters (whitespace is single spaces by now, so no CR LF pair), rather than
    /// walking characters and trimming with a character set. Nil for any other text.
    private static func asciiCut(_ bytes: UnsafeBufferPointer<UInt8>, limit: Int) -> String? {
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        let trimmed = { (byte: UInt8) in
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: ":"), UInt8(ascii: "."), UInt8(ascii: "-"): true
            default: false
            }
        }
        var end = bytes[..<limit].lastIndex(of: UInt8(ascii: " ")) ?? limit
        var start = 0
        while start < end, trimmed(bytes[start]) { start += 1 }
        while end > start, trimmed(bytes[end - 1]) { end -= 1 }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self) + "…"
    }

    /// Whether `text` shows nothing: empty or whitespace only. Most texts asked about start
    /// with a visible ASCII letter, and only the others are looked at whole.
    public static func isBlank(_ text: String) -> Bool {
        if let first = text.utf8.first, first > 0x20, first < 0x7F { return false }
        return collapsingWhitespace(text).isEmpty
    }

    /// Runs of whitespace become one space, none at either end — as splitting the text's
    /// characters on whitespace and joining them with spaces would, scalar by scalar
    /// (a paragraph has thousands of characters; splitting made an array of them).
    public static func collapsingWhitespace(_ text: String) -> String {
        var text = text
        return text.withUTF8 { bytes in
            // Over the bytes, each scalar decoded only to be told apart from whitespace and
            // copied as it is, into a buffer as long as the text (collapsing only shortens
            // it), without Unicode's properties asked of each scalar.
            let collapsed = [UInt8](unsafeUninitializedCapacity: bytes.count) { result, count in
                // Whether the scalar before was whitespace that a mark can join: controls
                // (tab, line breaks) always end their character.
                var inJoinableWhitespace = false
                var pendingSpace = false
                var index = 0
                count = 0
                while index < bytes.count {
                    let lead = bytes[index]
                    if lead < 0x80 {
                        // ASCII, most bytes of most texts, told apart by value (a first pass
                        // for texts all ASCII went over most texts twice).
                        switch lead {
                        case 0x20, 0x09...0x0D:
                            inJoinableWhitespace = lead == 0x20
                            pendingSpace = count > 0
                        default:
                            if pendingSpace {
                                result[count] = UInt8(ascii: " ")
                                count += 1
                                pendingSpace = false
                            }
                            result[count] = lead
                            count += 1
                            inJoinableWhitespace = false
                        }
                        index += 1
                        continue
                    }
                    let length = lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
                    let scalar = Summary.scalar(bytes, at: index, length: length)
                    if let joinable = Summary.whitespace(scalar) {
                        inJoinableWhitespace = joinable
                        pendingSpace = count > 0
                    } else if !(inJoinableWhitespace && extendsCharacter(Unicode.Scalar(scalar)!)) {
                        if pendingSpace {
                            result[count] = UInt8(ascii: " ")
                            count += 1
                        }
                        for offset in 0..<length { result[count + offset] = bytes[index + offset] }
                        count += length
                        inJoinableWhitespace = false
                        pendingSpace = false
                    }
                    // Else a mark that is part of the whitespace character before it, which is
                    // dropped whole.
                    index += length
                }
            }
            return String(decoding: collapsed, as: UTF8.self)
        }
    }

    /// The scalar of the `length`-byte UTF-8 sequence at `index` of valid UTF-8.
    @inline(__always)
    private static func scalar(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, length: Int) -> UInt32 {
        var value = UInt32(bytes[index]) & (0xFF >> (length + 1))
        for next in (index + 1)..<(index + length) { value = value << 6 | UInt32(bytes[next] & 0x3F) }
        return value
    }

    /// Whether `scalar` is whitespace (Unicode's White_Space, a list that does not change),
    /// and if so whether a mark after it joins it: the space and the spaces of other scripts
    /// do; controls (tab, line breaks, NEL) and the line and paragraph separators end their
    /// character. Nil for any other scalar.
    @inline(__always)
    public static func whitespace(_ scalar: UInt32) -> Bool? {
        switch scalar {
        case 0x20, 0xA0, 0x1680, 0x2000...0x200A, 0x202F, 0x205F, 0x3000: true
        case 0x09...0x0D, 0x85, 0x2028, 0x2029: false
        default: nil
        }
    }

    /// Scalars that never begin a character: they join the one before (extend, ZWJ,
    /// spacing marks). No ASCII scalar is one, so ICU is asked only of the others.
    private static func extendsCharacter(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isGraphemeExtend || scalar.value == 0x200D || scalar.properties.generalCategory == .spacingMark
    }
}
