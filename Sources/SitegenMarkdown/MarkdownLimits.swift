/// What a body may hold before cmark sees it.
///
/// cmark 0.30 looks back over every open bracket of a paragraph at each link it closes,
/// so a paragraph of images that never close around empty links (`![[]()` again and
/// again) takes time in the square of its brackets; with at most `bracketsPerParagraph`
/// of them, a text of the largest size takes a few times as long as prose
/// (docs/internals/performance-log.md, Step 14).
public enum MarkdownLimits {
    public static let maximumBytes = 4_000_000
    public static let bracketsPerParagraph = 500

    public struct Refusal: Sendable, Equatable {
        /// 1-based, in the body.
        public var line: Int
        public var column: Int
        public var message: String
    }

    /// Why `source` is refused, or nil when cmark may have it.
    public static func refusal(of source: [UInt8]) -> Refusal? {
        if source.count > maximumBytes {
            let megabytes = Double(source.count) / 1_000_000
            return Refusal(line: 1, column: 1, message: "the text is \((megabytes * 10).rounded(.down) / 10) MB, more than the \(maximumBytes / 1_000_000) MB a file's text may have: split it into several files (docs/content.md#limits)")
        }
        // Nearly every text has fewer brackets in all than a paragraph may have: counted
        // in one pass over the bytes, it is not cut into lines and paragraphs.
        let total = source.withUnsafeBufferPointer { bytes in bytes.reduce(0) { $0 + ($1 == UInt8(ascii: "[") ? 1 : 0) } }
        guard total > bracketsPerParagraph else { return nil }
        var brackets = 0
        var lineStart = 0
        var line = 1
        var afterBreak = true
        while lineStart < source.count {
            let lineEnd = source[lineStart...].firstIndex(of: UInt8(ascii: "\n")) ?? source.count
            let kind = lineKind(source[lineStart..<lineEnd], afterItem: afterBreak)
            if kind != .text { brackets = 0 }
            afterBreak = kind != .text
            if kind != .blank {
                for offset in lineStart..<lineEnd where source[offset] == UInt8(ascii: "[") {
                    brackets += 1
                    guard brackets > bracketsPerParagraph else { continue }
                    let column = String(decoding: source[lineStart..<offset], as: UTF8.self).unicodeScalars.count + 1
                    return Refusal(line: line, column: column, message: "this paragraph has more than \(bracketsPerParagraph) '[': a paragraph may have at most \(bracketsPerParagraph) links and images; put blank lines between its parts (docs/content.md#limits)")
                }
            }
            lineStart = lineEnd + 1
            line += 1
        }
        return nil
    }

    private enum LineKind { case blank, listItem, text }

    /// Whether a line ends the paragraph before it: a blank line does, and so does a list
    /// item. An item indented four spaces or more, or numbered, ends one only after another
    /// item or a blank line: under a line of text it continues that line's paragraph.
    private static func lineKind(_ line: ArraySlice<UInt8>, afterItem: Bool) -> LineKind {
        var indentation = 0
        let content = line.drop {
            guard $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") else { return false }
            indentation += $0 == UInt8(ascii: " ") ? 1 : 4
            return true
        }
        guard let first = content.first, first != UInt8(ascii: "\r") else { return .blank }
        guard indentation <= 3 || afterItem else { return .text }
        let rest: ArraySlice<UInt8>
        if first == UInt8(ascii: "-") || first == UInt8(ascii: "*") || first == UInt8(ascii: "+") {
            rest = content.dropFirst()
        } else if afterItem, first >= UInt8(ascii: "0"), first <= UInt8(ascii: "9") {
            let afterDigits = content.drop { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
            guard let marker = afterDigits.first, marker == UInt8(ascii: ".") || marker == UInt8(ascii: ")") else { return .text }
            rest = afterDigits.dropFirst()
        } else {
            return .text
        }
        guard let space = rest.first, space == UInt8(ascii: " ") || space == UInt8(ascii: "\t"),
              rest.contains(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") && $0 != UInt8(ascii: "\r") }) else { return .text }
        return .listItem
    }
}
