/// JSON string literals that are also safe inside an HTML `<script>` element and in
/// Server-Sent Events: `<`, `>`, `&`, `'`, U+2028 and U+2029 are escaped, so no value can
/// close a script or break a line.
public enum JSONString {
    public static func quote(_ text: String) -> String {
        // Most values (names, URLs, dates) need no escape at all.
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">")
            || $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: "'") || $0 == 0xE2 }) {
            return "\"" + text + "\""
        }
        // Byte by byte: a summary ends in "…" (E2 80 A6), which brings most texts here.
        let bytes = Array(text.utf8)
        var result: [UInt8] = [UInt8(ascii: "\"")]
        result.reserveCapacity(bytes.count + 16)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""): escape(UInt8(ascii: "\""), to: &result)
            case UInt8(ascii: "\\"): escape(UInt8(ascii: "\\"), to: &result)
            case UInt8(ascii: "\n"): escape(UInt8(ascii: "n"), to: &result)
            case UInt8(ascii: "\r"): escape(UInt8(ascii: "r"), to: &result)
            case UInt8(ascii: "\t"): escape(UInt8(ascii: "t"), to: &result)
            case UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "&"), UInt8(ascii: "'"), 0..<0x20:
                hex(UInt16(byte), to: &result)
            case 0xE2 where index + 2 < bytes.count && bytes[index + 1] == 0x80 && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9):
                // U+2028 and U+2029, which end a line in JavaScript.
                hex(bytes[index + 2] == 0xA8 ? 0x2028 : 0x2029, to: &result)
                index += 2
            default:
                result.append(byte)
            }
            index += 1
        }
        result.append(UInt8(ascii: "\""))
        return String(decoding: result, as: UTF8.self)
    }

    private static func escape(_ letter: UInt8, to result: inout [UInt8]) {
        result.append(UInt8(ascii: "\\"))
        result.append(letter)
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
