public enum XML {
    /// Escapes text and attribute values, and drops the characters XML 1.0 forbids.
    /// Works on UTF-8 bytes: a feed escapes whole articles, and going scalar by scalar
    /// cost more than making the rest of the feed.
    public static func escape(_ text: String) -> String {
        var bytes: [UInt8] = []
        append(text, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `text` escaped to `bytes`.
    public static func append(_ text: String, to bytes: inout [UInt8]) {
        var text = text
        text.withUTF8 { append($0, to: &bytes) }
    }

    /// Appends the UTF-8 `source` (valid) escaped to `bytes`.
    public static func append(_ source: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8]) {
        // No reserveCapacity here: it makes the buffer exactly that large, so called for
        // each value appended to a growing buffer (a sitemap's URLs) it copied the whole
        // buffer every time; appending grows it by doubling.
        // Bytes that stay are copied a run at a time.
        var run = 0
        var index = 0
        while index < source.count {
            let replacement: StaticString
            var length = 1
            switch source[index] {
            case UInt8(ascii: "&"): replacement = "&amp;"
            case UInt8(ascii: "<"): replacement = "&lt;"
            case UInt8(ascii: ">"): replacement = "&gt;"
            case UInt8(ascii: "\""): replacement = "&quot;"
            case UInt8(ascii: "'"): replacement = "&apos;"
            case UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                index += 1
                continue
            case ..<0x20: replacement = ""
            // U+FFFE and U+FFFF, EF BF BE and EF BF BF.
            case 0xEF where index + 2 < source.count && source[index + 1] == 0xBF && (source[index + 2] == 0xBE || source[index + 2] == 0xBF):
                replacement = ""
                length = 3
            default:
                index += 1
                continue
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: source[run..<index]))
            replacement.withUTF8Buffer { bytes.append(contentsOf: $0) }
            index += length
            run = index
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: source[run..<source.count]))
    }
}
