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
            case UInt8(ascii: "\""): result += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): result += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case UInt8(ascii: "\n"): result += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case UInt8(ascii: "\r"): result += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case UInt8(ascii: "\t"): result += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "&"), UInt8(ascii: "'"), 0..<0x20:
                result += hex(UInt32(byte)).utf8
            case 0xE2 where index + 2 < bytes.count && bytes[index + 1] == 0x80 && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9):
                // U+2028 and U+2029, which end a line in JavaScript.
                result += hex(bytes[index + 2] == 0xA8 ? 0x2028 : 0x2029).utf8
                index += 2
            default:
                result.append(byte)
            }
            index += 1
        }
        result.append(UInt8(ascii: "\""))
        return String(decoding: result, as: UTF8.self)
    }

    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return "\\u" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
