import SitegenSupport

/// Reads the front matter most files have — one `key: value` a line, values bare, in
/// double quotes without escapes, flat lists like `[6, 7]` or flat mappings like
/// `{name: Sam, username: sam}`, and mappings one level deep on indented lines — without
/// libyaml, whose
/// set-up and event stream cost more than the rest of reading an assignment. Anything
/// else (nesting, other quoting, comments after values, characters YAML treats specially)
/// is left to libyaml: `read` answers nil, never an error, so every error and every
/// unusual document reads exactly as libyaml reads it. A test checks both readers agree
/// on thousands of generated documents.
enum FlatMappingReader {
    /// The mapping of `text`, or nil when it is not written in the flat form.
    static func read(_ text: [UInt8], path: String, firstLine: Int) -> YAMLNode? {
        text.withUnsafeBufferPointer { bytes in
            var reader = Cursor(bytes: bytes, path: path, firstLine: firstLine)
            return reader.mapping()
        }
    }

    private struct Cursor {
        let bytes: UnsafeBufferPointer<UInt8>
        let path: String
        let firstLine: Int
        var offset = 0
        var line = 0
        /// Where the current line starts.
        var lineStart = 0
        /// A place on the current line (or before it) and the column there: a location is
        /// counted on from the last one, not from the line's start again, so a line of many
        /// long values is counted once.
        private var counted = 0
        private var countedColumn = 1

        init(bytes: UnsafeBufferPointer<UInt8>, path: String, firstLine: Int) {
            self.bytes = bytes
            self.path = path
            self.firstLine = firstLine
        }

        /// `offset` only moves forward: a place before the line's start is on an earlier line.
        mutating func location() -> SourceLocation {
            if counted < lineStart {
                counted = lineStart
                countedColumn = 1
            }
            for index in counted..<offset where bytes[index] & 0xC0 != 0x80 { countedColumn += 1 }
            counted = offset
            return SourceLocation(path: path, line: firstLine + line, column: countedColumn)
        }

        var atLineEnd: Bool { offset == bytes.count || bytes[offset] == UInt8(ascii: "\n") }

        /// A block mapping whose keys start `indent` spaces into their lines, up to the
        /// first line indented less; at the top (`indent` 0) a key may open a mapping on the
        /// lines below it.
        mutating func mapping(indent: Int = 0) -> YAMLNode? {
            // Room for a front matter's keys (or a nested mapping's): grown from nothing, the
            // pairs of an article's mappings were made and copied again a dozen times.
            var pairs: [YAMLPair] = []
            pairs.reserveCapacity(indent == 0 ? 16 : 4)
            var seen: Set<String> = []
            var start: SourceLocation?
            while offset < bytes.count {
                // Blank lines and whole-line comments between keys; a comment with a character
                // YAML 1.1 counts as a line break (NEL, U+2028) does not end where it seems to.
                if bytes[offset] == UInt8(ascii: "\n") || bytes[offset] == UInt8(ascii: "#") {
                    while !atLineEnd {
                        guard let length = printableCharacter(at: offset) else { return nil }
                        offset += length
                    }
                    if offset < bytes.count { nextLine() }
                    continue
                }
                let spaces = leadingSpaces()
                if spaces < indent, indent > 0 { break }
                guard spaces == indent else { return nil }
                offset += spaces
                let keyLocation = location()
                guard let key = key(), Self.isNew(key, among: pairs, seen: &seen) else { return nil }
                let value: YAMLNode
                if indent == 0, offset < bytes.count, bytes[offset] == UInt8(ascii: "\n") {
                    nextLine()
                    let nested = leadingSpaces()
                    guard nested > 0, let inner = mapping(indent: nested) else { return nil }
                    value = inner
                } else {
                    guard offset < bytes.count, bytes[offset] == UInt8(ascii: " ") else { return nil }
                    skipSpaces()
                    guard let inline = self.value(), atLineEnd else { return nil }
                    value = inline
                    if offset < bytes.count { nextLine() }
                }
                pairs.append(YAMLPair(key: key, keyLocation: keyLocation, value: value))
                if start == nil { start = keyLocation }
            }
            guard let start, pairs.count < 10_000 else { return nil }
            return YAMLNode(.mapping(pairs), at: start)
        }

        /// Spaces at the start of the line at `offset`, which is a line's start.
        func leadingSpaces() -> Int {
            var index = offset
            while index < bytes.count, bytes[index] == UInt8(ascii: " ") { index += 1 }
            return index - offset
        }

        mutating func nextLine() {
            offset += 1
            line += 1
            lineStart = offset
        }

        /// `[A-Za-z_][A-Za-z0-9_]*` and its colon, at the start of a line.
        mutating func key() -> String? {
            let start = offset
            while offset < bytes.count, isWordByte(bytes[offset]) { offset += 1 }
            guard offset > start, !isDigit(bytes[start]), offset < bytes.count, bytes[offset] == UInt8(ascii: ":") else { return nil }
            let key = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self)
            offset += 1
            return key
        }

        mutating func value() -> YAMLNode? {
            guard offset < bytes.count else { return nil }
            let at = location()
            switch bytes[offset] {
            case UInt8(ascii: "\""):
                guard let text = quoted() else { return nil }
                return YAMLNode(.scalar(YAMLScalar(text, style: .quoted)), at: at)
            case UInt8(ascii: "["):
                guard let items = list() else { return nil }
                return YAMLNode(.sequence(items), at: at)
            case UInt8(ascii: "{"):
                guard let pairs = flowMapping() else { return nil }
                return YAMLNode(.mapping(pairs), at: at)
            default:
                guard let text = plain(closing: nil) else { return nil }
                return YAMLNode(.scalar(YAMLScalar(text, style: .plain)), at: at)
            }
        }

        /// `"…"` with no backslash, then nothing but the line's end or, in a list, what
        /// follows an item.
        mutating func quoted() -> String? {
            offset += 1
            let start = offset
            while offset < bytes.count, bytes[offset] != UInt8(ascii: "\"") {
                guard bytes[offset] != UInt8(ascii: "\\"), let length = printableCharacter(at: offset) else { return nil }
                offset += length
            }
            guard offset < bytes.count else { return nil }
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self)
            offset += 1
            return text
        }

        /// A bare value: ASCII, not starting with a character YAML gives a meaning to, with
        /// no `: `, ` #` or trailing space; inside `[…]` or `{…}` (`closing` is `]` or `}`),
        /// ending at `,` or `closing` and with no other bracket or `:`.
        mutating func plain(closing: UInt8?) -> String? {
            let start = offset
            guard !atLineEnd, !Self.isIndicator(bytes[offset]) else { return nil }
            while !atLineEnd {
                let byte = bytes[offset]
                if let closing, byte == UInt8(ascii: ",") || byte == closing { break }
                guard byte >= 0x20, byte < 0x7F else { return nil }
                if byte == UInt8(ascii: ":") {
                    guard closing == nil, offset + 1 < bytes.count, bytes[offset + 1] != UInt8(ascii: " "), bytes[offset + 1] != UInt8(ascii: "\n") else { return nil }
                }
                if byte == UInt8(ascii: "#"), bytes[offset - 1] == UInt8(ascii: " ") { return nil }
                if closing != nil, Self.isBracket(byte) { return nil }
                offset += 1
            }
            guard offset > start, bytes[offset - 1] != UInt8(ascii: " ") else { return nil }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self)
        }

        /// A scalar inside `[…]` or `{…}`: quoted or bare.
        mutating func flowScalar(closing: UInt8) -> YAMLNode? {
            guard offset < bytes.count else { return nil }
            let at = location()
            if bytes[offset] == UInt8(ascii: "\"") {
                guard let text = quoted() else { return nil }
                return YAMLNode(.scalar(YAMLScalar(text, style: .quoted)), at: at)
            }
            guard let text = plain(closing: closing) else { return nil }
            return YAMLNode(.scalar(YAMLScalar(text, style: .plain)), at: at)
        }

        /// After an item of `[…]` or `{…}`: true at the closing bracket (passed), false at a
        /// comma followed by another item, nil for anything else.
        mutating func endOfItem(closing: UInt8) -> Bool? {
            skipSpaces()
            guard offset < bytes.count else { return nil }
            switch bytes[offset] {
            case UInt8(ascii: ","):
                offset += 1
                skipSpaces()
                guard offset < bytes.count, bytes[offset] != closing else { return nil }
                return false
            case closing:
                offset += 1
                return true
            default:
                return nil
            }
        }

        /// Past `[` or `{` and the spaces after it: true when `closing` follows at once
        /// (and is passed too).
        mutating func opens(closing: UInt8) -> Bool {
            offset += 1
            skipSpaces()
            guard offset < bytes.count, bytes[offset] == closing else { return false }
            offset += 1
            return true
        }

        /// Whether `key` is none of `pairs`' keys. A front matter has a dozen keys, which a look
        /// along them finds fastest; past that, a set (`seen`, made then), or 40,000 keys
        /// took seconds.
        static func isNew(_ key: String, among pairs: [YAMLPair], seen: inout Set<String>) -> Bool {
            if pairs.count < 16 { return !pairs.contains { $0.key == key } }
            if seen.isEmpty { seen = Set(pairs.map(\.key)) }
            return seen.insert(key).inserted
        }

        /// `{name: Sam, username: "sam"}` on one line, or `{}`.
        mutating func flowMapping() -> [YAMLPair]? {
            var pairs: [YAMLPair] = []
            pairs.reserveCapacity(4)
            var seen: Set<String> = []
            if opens(closing: UInt8(ascii: "}")) { return pairs }
            while true {
                let keyLocation = location()
                guard let key = key(), Self.isNew(key, among: pairs, seen: &seen), offset < bytes.count, bytes[offset] == UInt8(ascii: " ") else { return nil }
                skipSpaces()
                guard let value = flowScalar(closing: UInt8(ascii: "}")) else { return nil }
                pairs.append(YAMLPair(key: key, keyLocation: keyLocation, value: value))
                guard let closed = endOfItem(closing: UInt8(ascii: "}")) else { return nil }
                if closed { return pairs }
            }
        }

        /// `[a, "b", 7]` on one line, or `[]`.
        mutating func list() -> [YAMLNode]? {
            var items: [YAMLNode] = []
            items.reserveCapacity(4)
            if opens(closing: UInt8(ascii: "]")) { return items }
            while true {
                guard let item = flowScalar(closing: UInt8(ascii: "]")) else { return nil }
                items.append(item)
                guard let closed = endOfItem(closing: UInt8(ascii: "]")) else { return nil }
                if closed { return items }
            }
        }

        mutating func skipSpaces() {
            while offset < bytes.count, bytes[offset] == UInt8(ascii: " ") { offset += 1 }
        }

        /// The length of the character at `index` when it is valid UTF-8 and text YAML reads
        /// as it is: no control characters, and none of the characters YAML 1.1 counts as
        /// line breaks or forbids (NEL and the other C1 controls, U+2028, U+2029, U+FEFF,
        /// U+FFFE, U+FFFF).
        /// ASCII, nearly every byte of a front matter, without a call: it is called for each
        /// byte of every quoted value.
        @inline(__always)
        func printableCharacter(at index: Int) -> Int? {
            let lead = bytes[index]
            if lead < 0x80 { return lead >= 0x20 && lead != 0x7F ? 1 : nil }
            return printableScalar(at: index)
        }

        /// `printableCharacter` of a character past ASCII.
        @inline(never)
        private func printableScalar(at index: Int) -> Int? {
            let lead = bytes[index]
            let length: Int
            var scalar: UInt32
            switch lead {
            case 0xC2...0xDF: (length, scalar) = (2, UInt32(lead & 0x1F))
            case 0xE0...0xEF: (length, scalar) = (3, UInt32(lead & 0x0F))
            case 0xF0...0xF4: (length, scalar) = (4, UInt32(lead & 0x07))
            default: return nil
            }
            guard index + length <= bytes.count else { return nil }
            for next in bytes[(index + 1)..<(index + length)] {
                guard next & 0xC0 == 0x80 else { return nil }
                scalar = scalar << 6 | UInt32(next & 0x3F)
            }
            let shortest: UInt32 = length == 2 ? 0x80 : length == 3 ? 0x800 : 0x10000
            guard scalar >= shortest, scalar <= 0x10FFFF, !(0xD800...0xDFFF).contains(scalar), scalar >= 0xA0,
                  scalar != 0x2028, scalar != 0x2029, scalar != 0xFEFF, scalar != 0xFFFE, scalar != 0xFFFF
            else { return nil }
            return length
        }

        /// Characters a bare value must not start with.
        static func isIndicator(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "-"), UInt8(ascii: "?"), UInt8(ascii: ":"), UInt8(ascii: ","), UInt8(ascii: "#"), UInt8(ascii: "&"),
                 UInt8(ascii: "*"), UInt8(ascii: "!"), UInt8(ascii: "|"), UInt8(ascii: ">"), UInt8(ascii: "'"), UInt8(ascii: "\""),
                 UInt8(ascii: "%"), UInt8(ascii: "@"), UInt8(ascii: "`"), UInt8(ascii: " "): true
            default: isBracket(byte)
            }
        }

        static func isBracket(_ byte: UInt8) -> Bool {
            byte == UInt8(ascii: "[") || byte == UInt8(ascii: "]") || byte == UInt8(ascii: "{") || byte == UInt8(ascii: "}")
        }

        func isWordByte(_ byte: UInt8) -> Bool {
            isDigit(byte) || byte == UInt8(ascii: "_") || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z"))
        }

        func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
    }
}
