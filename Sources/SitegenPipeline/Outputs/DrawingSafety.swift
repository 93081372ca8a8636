import Foundation
import SitegenContent
import SitegenFiles
import SitegenSupport

/// An SVG is a document as well as a picture: opened by its own address, it runs the
/// scripts it holds on the site's origin, where they can read and change every page. An
/// SVG is published only when it holds nothing that runs: the file is refused, at the first
/// thing that could, rather than rewritten into something its author did not draw.
///
/// The check reads the bytes, not a parse of them, and refuses more than a browser would
/// run: any script element, event attribute, `javascript:` address or `data:` address but a
/// picture's, embedded documents, entities and character references inside tags (which
/// could spell any of these), and style sheets by processing instruction.
public enum DrawingSafety {
    public struct Finding: Equatable, Sendable {
        public var line: Int
        public var column: Int
        /// What was found, as the message names it: "a <script> element".
        public var what: String

        public init(line: Int, column: Int, what: String) {
            self.line = line
            self.column = column
            self.what = what
        }
    }

    /// Every SVG of Content/: one that holds anything that could run is an error at it.
    public static func check(staticFiles: [String], contentFolder: URL, log: DiagnosticLog) {
        for path in staticFiles where path.lowercased().hasSuffix(".svg") {
            guard let bytes = FileReader.read(contentFolder.appendingPathComponent(path).path), let finding = finding(in: bytes) else { continue }
            log.error(at: SourceLocation(path: "Content/" + path, line: finding.line, column: finding.column),
                      "SVG '\(path)' must hold nothing that runs, found \(finding.what): remove it, or publish the drawing as a PNG (docs/photos.md)")
        }
    }

    /// The first thing in `bytes` that could run, or nil when the drawing is safe.
    public static func finding(in bytes: [UInt8]) -> Finding? {
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) || String(validating: bytes, as: UTF8.self) == nil {
            return Finding(line: 1, column: 1, what: "text that is not UTF-8")
        }
        let lowered = bytes.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
        var earliest: (offset: Int, what: String)?
        func note(_ offset: Int, _ what: String) {
            if earliest == nil || offset < earliest!.offset { earliest = (offset, what) }
        }
        for (needle, what) in refused {
            if let offset = firstIndex(of: Array(needle.utf8), in: lowered) { note(offset, what) }
        }
        if let offset = eventAttribute(in: lowered) { note(offset, "an event attribute (on…=), which runs a script") }
        if let offset = referenceInTag(in: lowered) { note(offset, "a reference (&…;) inside a tag, which could spell an address that runs a script") }
        if let offset = dataAddress(in: lowered) { note(offset, "a data: address that is not a PNG, JPEG, GIF or WebP picture") }
        guard let (offset, what) = earliest else { return nil }
        let before = bytes[..<offset]
        let line = before.count { $0 == 0x0A } + 1
        let lineStart = before.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
        let column = String(decoding: bytes[lineStart..<offset], as: UTF8.self).count + 1
        return Finding(line: line, column: column, what: what)
    }

    private static let refused: [(String, String)] = [
        ("<script", "a <script> element"),
        (":script", "a <script> element"),
        ("script:", "an address that runs a script (javascript:)"),
        ("foreignobject", "a <foreignObject>, which holds a web page"),
        ("<iframe", "an <iframe>"),
        ("<embed", "an <embed>"),
        ("<object", "an <object>"),
        ("<handler", "a <handler>, which runs a script"),
        ("<!entity", "an entity declaration, which could spell an address that runs a script"),
        ("<?xml-stylesheet", "a style sheet processing instruction"),
        ("ev:event", "an XML event listener"),
    ]

    private static func firstIndex(of needle: [UInt8], in bytes: [UInt8], from start: Int = 0) -> Int? {
        guard needle.count <= bytes.count else { return nil }
        var index = start
        while index + needle.count <= bytes.count {
            if bytes[index] == needle[0], bytes[index..<index + needle.count].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x2D || byte == 0x5F || byte == 0x2E
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

    /// An attribute whose name, or whose name after a prefix, begins with `on`, followed by
    /// `=`: `onload=`, `svg:onclick =`; also `attributeName="on…"`, which sets one.
    private static func eventAttribute(in bytes: [UInt8]) -> Int? {
        var index = 1
        while index + 2 < bytes.count {
            let before = bytes[index - 1]
            if bytes[index] == UInt8(ascii: "o"), bytes[index + 1] == UInt8(ascii: "n"),
               isSpace(before) || before == UInt8(ascii: ":") || before == UInt8(ascii: "\"") || before == UInt8(ascii: "'") || before == UInt8(ascii: "/") {
                var end = index + 2
                while end < bytes.count, isNameByte(bytes[end]) { end += 1 }
                var after = end
                while after < bytes.count, isSpace(bytes[after]) { after += 1 }
                let quotedName = before == UInt8(ascii: "\"") || before == UInt8(ascii: "'")
                if end > index + 2, after < bytes.count, bytes[after] == UInt8(ascii: "=") || (quotedName && bytes[end] == before) {
                    if !quotedName || attributeNameValue(bytes, quoteAt: index - 1) { return index }
                }
            }
            index += 1
        }
        return nil
    }

    /// Whether the quoted value starting after `quoteAt` is that of `attributename=`.
    private static func attributeNameValue(_ bytes: [UInt8], quoteAt: Int) -> Bool {
        var index = quoteAt - 1
        while index >= 0, isSpace(bytes[index]) { index -= 1 }
        guard index >= 0, bytes[index] == UInt8(ascii: "=") else { return false }
        index -= 1
        while index >= 0, isSpace(bytes[index]) { index -= 1 }
        let name = Array("attributename".utf8)
        guard index + 1 >= name.count else { return false }
        return bytes[(index + 1 - name.count)...index].elementsEqual(name)
    }

    /// A `&` between a tag's `<` and `>` that is not one of XML's five named references.
    private static func referenceInTag(in bytes: [UInt8]) -> Int? {
        var inTag = false
        var quote: UInt8?
        let allowed = ["&amp;", "&lt;", "&gt;", "&quot;", "&apos;"].map { Array($0.utf8) }
        for index in bytes.indices {
            let byte = bytes[index]
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "<") {
                inTag = true
            } else if byte == UInt8(ascii: ">") {
                inTag = false
            } else if inTag, byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            }
            if inTag, byte == UInt8(ascii: "&"), !allowed.contains(where: { bytes[index...].starts(with: $0) }) { return index }
        }
        return nil
    }

    /// A `data:` address that is not a raster picture's.
    private static func dataAddress(in bytes: [UInt8]) -> Int? {
        let needle = Array("data:".utf8)
        let pictures = ["image/png", "image/jpeg", "image/gif", "image/webp"].map { Array($0.utf8) }
        var from = 0
        while from < bytes.count, let at = firstIndex(of: needle, in: bytes, from: from) {
            var after = at + needle.count
            while after < bytes.count, isSpace(bytes[after]) { after += 1 }
            let isWord = at > 0 && isNameByte(bytes[at - 1])
            if !isWord, !pictures.contains(where: { bytes[after...].starts(with: $0) }) { return at }
            from = at + needle.count
        }
        return nil
    }
}
