import SitegenBytes
import SitegenSupport

/// A content file cut into its YAML front matter and its Markdown body, each with the
/// line of the file it starts on.
public struct FrontMatterDocument: Sendable {
    public var frontMatter: [UInt8]
    public var frontMatterFirstLine: Int
    public var body: [UInt8]
    public var bodyFirstLine: Int
}

public enum FrontMatter {
    /// Splits a file that starts with a line of exactly `---` and has its front matter
    /// closed by another such line. A UTF-8 byte order mark and CRLF line ends are fine.
    public static func split(_ file: [UInt8], path: String) throws(Diagnostic) -> FrontMatterDocument {
        var start = 0
        if file.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
        let firstLine = line(in: file, from: start)
        guard isFence(file[start..<firstLine.contentEnd]) else {
            let found = String(decoding: file[start..<firstLine.contentEnd].prefix(40), as: UTF8.self)
            throw .error(at: SourceLocation(path: path, line: 1, column: 1),
                         "expected front matter: the file must start with a line of exactly '---', found '\(found)'")
        }
        var lineNumber = 2
        var cursor = firstLine.next
        while cursor < file.count {
            let current = line(in: file, from: cursor)
            if isFence(file[cursor..<current.contentEnd]) {
                return FrontMatterDocument(
                    frontMatter: Array(file[firstLine.next..<cursor]),
                    frontMatterFirstLine: 2,
                    body: Array(file[current.next...]),
                    bodyFirstLine: lineNumber + 1
                )
            }
            cursor = current.next
            lineNumber += 1
        }
        throw .error(at: SourceLocation(path: path, line: 1, column: 1),
                     "front matter opened here is never closed: expected a line of exactly '---' after it")
    }

    private static func isFence(_ line: ArraySlice<UInt8>) -> Bool {
        var content = line
        while let last = content.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") { content.removeLast() }
        return content.elementsEqual("---".utf8)
    }

    /// The end of a line's content (before `\r\n` or `\n`) and where the next line starts.
    private static func line(in bytes: [UInt8], from start: Int) -> (contentEnd: Int, next: Int) {
        var index = start
        while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
        let contentEnd = index > start && bytes[index - 1] == UInt8(ascii: "\r") ? index - 1 : index
        return (contentEnd, min(index + 1, bytes.count))
    }
}

/// Finds the first byte that is not valid UTF-8 and says where it is.
public enum UTF8Check {
    /// Whether `bytes` are well-formed UTF-8 (no overlong forms, surrogates or scalars past
    /// U+10FFFF), runs of ASCII 32 and 8 bytes at a time, without making a String of the file.
    public static func isValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let count = bytes.count
        var index = 0
        let raw = UnsafeRawPointer(base)
        while index < count {
            // ASCII runs 32 bytes a step (one test of four words), then 8.
            if index + 32 <= count,
               ByteLanes.pastASCII(in: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) | raw.loadUnaligned(fromByteOffset: index + 8, as: UInt64.self)
                   | raw.loadUnaligned(fromByteOffset: index + 16, as: UInt64.self) | raw.loadUnaligned(fromByteOffset: index + 24, as: UInt64.self)) == 0 {
                index += 32
                continue
            }
            if index + 8 <= count, ByteLanes.pastASCII(in: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)) == 0 {
                index += 8
                continue
            }
            let lead = base[index]
            let length: Int
            switch lead {
            case 0..<0x80:
                index += 1
                continue
            case 0xC2..<0xE0: length = 2
            case 0xE0..<0xF0: length = 3
            case 0xF0..<0xF5: length = 4
            default: return false
            }
            guard index + length <= count else { return false }
            for offset in 1..<length where base[index + offset] & 0xC0 != 0x80 { return false }
            let second = base[index + 1]
            switch lead {
            case 0xE0 where second < 0xA0, 0xED where second > 0x9F, 0xF0 where second < 0x90, 0xF4 where second > 0x8F: return false
            default: index += length
            }
        }
        return true
    }

    public static func firstInvalidByte(in bytes: [UInt8], path: String) -> Diagnostic? {
        // Nearly every file is valid: checking is much faster than decoding scalar by
        // scalar, which only runs to find where a problem is.
        if bytes.withUnsafeBufferPointer(isValid) { return nil }
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var line = 1
        var column = 1
        var offset = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                offset += UTF8.width(scalar)
                if scalar == "\n" {
                    line += 1
                    column = 1
                } else {
                    column += 1
                }
            case .emptyInput:
                return nil
            case .error:
                let byte = offset < bytes.count ? bytes[offset] : 0
                return .error(at: SourceLocation(path: path, line: line, column: column),
                              "invalid UTF-8: byte 0x\(String(byte, radix: 16, uppercase: true)) is not part of a character; save the file as UTF-8")
            }
        }
    }
}
