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
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "<", ">", "&", "'", "\u{2028}", "\u{2029}":
                result += hex(scalar.value)
            case _ where scalar.value < 0x20:
                result += hex(scalar.value)
            default:
                result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return "\\u" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
