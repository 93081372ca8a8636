import SitegenBytes

/// JSON string literals that are also safe inside an HTML `<script>` element and in
/// Server-Sent Events: `<`, `>`, `&`, `'`, U+2028 and U+2029 are escaped, so no value can
/// close a script or break a line.
public enum JSONString {
    public static func quote(_ text: String) -> String {
        var result: [UInt8] = []
        append(text, to: &result)
        return String(decoding: result, as: UTF8.self)
    }

    /// Appends `text` as a quoted literal: JSON made in one buffer instead of a String per
    /// value and per concatenation (a site's JSON-LD cost more than its Markdown headings).
    public static func append(_ text: String, to result: inout [UInt8]) {
        var text = text
        text.withUTF8 { bytes in
            result.append(UInt8(ascii: "\""))
            var run = 0
            var index = 0
            let raw = UnsafeRawPointer(bytes.baseAddress)
            // Eight bytes at a time: a word with nothing to escape and no byte past ASCII
            // (nearly every word of titles, summaries and addresses) is passed whole.
            var wordEnd = 0
            while index < bytes.count {
                if index >= wordEnd {
                    if let raw, index + 8 <= bytes.count, !mayNeedEscape(raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)) {
                        index += 8
                        continue
                    }
                    wordEnd = index + 8
                }
                let byte = bytes[index]
                var length = 1
                let escape: Escape
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): escape = .letter(byte)
                case UInt8(ascii: "\n"): escape = .letter(UInt8(ascii: "n"))
                case UInt8(ascii: "\r"): escape = .letter(UInt8(ascii: "r"))
                case UInt8(ascii: "\t"): escape = .letter(UInt8(ascii: "t"))
                case UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "&"), UInt8(ascii: "'"), 0..<0x20: escape = .unicode(UInt16(byte))
                case 0xE2 where index + 2 < bytes.count && bytes[index + 1] == 0x80 && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9):
                    // U+2028 and U+2029, which end a line in JavaScript.
                    escape = .unicode(bytes[index + 2] == 0xA8 ? 0x2028 : 0x2029)
                    length = 3
                default:
                    index += 1
                    continue
                }
                result.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<index]))
                switch escape {
                case .letter(let letter):
                    result.append(UInt8(ascii: "\\"))
                    result.append(letter)
                case .unicode(let code):
                    hex(code, to: &result)
                }
                index += length
                run = index
            }
            result.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<bytes.count]))
            result.append(UInt8(ascii: "\""))
        }
    }

    /// Whether any byte of `word` may need escaping: a quote, a backslash, `<`, `>`, `&`,
    /// an apostrophe, a control character or a byte past ASCII (U+2028 and U+2029 start
    /// with E2).
    @inline(__always)
    private static func mayNeedEscape(_ word: UInt64) -> Bool {
        (ByteLanes.equal(to: UInt8(ascii: "\""), in: word) | ByteLanes.equal(to: UInt8(ascii: "\\"), in: word) | ByteLanes.equal(to: UInt8(ascii: "<"), in: word)
            | ByteLanes.equal(to: UInt8(ascii: ">"), in: word) | ByteLanes.equal(to: UInt8(ascii: "&"), in: word) | ByteLanes.equal(to: UInt8(ascii: "'"), in: word)
            | ByteLanes.below(0x20, in: word) | ByteLanes.pastASCII(in: word)) != 0
    }

    /// A backslash and a letter (`\n`), or `\u` and a code.
    private enum Escape {
        case letter(UInt8)
        case unicode(UInt16)
    }

    /// `\u` and four lowercase hex digits.
    private static func hex(_ value: UInt16, to result: inout [UInt8]) {
        result.append(UInt8(ascii: "\\"))
        result.append(UInt8(ascii: "u"))
        for shift in stride(from: 12, through: 0, by: -4) {
            let digit = UInt8((value >> UInt16(shift)) & 0xF)
            result.append(digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") + digit - 10)
        }
    }
}
