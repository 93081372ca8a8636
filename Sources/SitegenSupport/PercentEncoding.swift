/// `%XX` escapes of URLs, undone once.
public enum PercentEncoding {
    /// The bytes `text` stands for; nil when a `%` is not followed by two hex digits, or
    /// when `refusing` turns down a byte an escape stands for.
    public static func decode(_ text: String, refusing: (UInt8) -> Bool = { _ in false }) -> [UInt8]? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(digit), let low = iterator.next().flatMap(digit) else { return nil }
            let value = high << 4 | low
            if refusing(value) { return nil }
            bytes.append(value)
        }
        return bytes
    }

    private static func digit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
