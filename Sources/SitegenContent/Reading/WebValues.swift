import Foundation
import SitegenSupport
import SitegenYAML

public struct WebURL: FrontMatterValue, Hashable, Sendable, CustomStringConvertible {
    public var text: String

    public static var expectation: String { "an http or https URL like https://example.com/" }

    public init(node: YAMLNode) throws(ValueProblem) {
        guard let scalar = node.scalar else { throw .mismatch }
        try TextLimit.any.check(scalar.text)
        guard let url = WebURL(scalar.text) else { throw .mismatch }
        self = url
    }

    public init?(_ text: String) {
        // Over the UTF-8 bytes: every image of every article is checked, without
        // lowercasing and walking the characters of each URL. Every scalar the check refuses
        // is ASCII, and no byte of a longer scalar is ASCII.
        var contiguous = text
        let valid = contiguous.withUTF8 { bytes -> Bool in
            func lowered(_ byte: UInt8) -> UInt8 { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte }
            func hasScheme(_ scheme: StaticString) -> Bool {
                bytes.count >= scheme.utf8CodeUnitCount && (0..<scheme.utf8CodeUnitCount).allSatisfy { lowered(bytes[$0]) == scheme.utf8Start[$0] }
            }
            let schemeLength: Int
            if hasScheme("https://") { schemeLength = 8 } else if hasScheme("http://") { schemeLength = 7 } else { return false }
            guard !bytes.contains(where: { $0 <= 0x20 || $0 == 0x7F || $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") || $0 == UInt8(ascii: "\"") })
            else { return false }
            let hostEnd = bytes[schemeLength...].firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? bytes.count
            return hostEnd > schemeLength && bytes[schemeLength] != UInt8(ascii: "@") && bytes[schemeLength] != UInt8(ascii: ":")
        }
        guard valid else { return nil }
        self.text = text
    }

    /// A URL checked when its source was read, as the build cache gives it back, not
    /// checked again for every assignment that names it.
    public init(checked text: String) {
        self.text = text
    }

    public var description: String { text }
}

/// Where an image comes from: a file of the site, or an http/https URL.
public enum ImageSource: FrontMatterValue, Hashable, Sendable {
    case local(String)
    case remote(WebURL)

    public static var expectation: String { "a path to an image of the site or an http/https URL" }

    public init(node: YAMLNode) throws(ValueProblem) {
        guard let scalar = node.scalar, !scalar.text.isEmpty else { throw .mismatch }
        guard let source = ImageSource(scalar.text) else {
            throw .invalid("must be a path to an image of the site or an http/https URL, found '\(scalar.text)'")
        }
        self = source
    }

    public init?(_ text: String) {
        let utf8 = text.utf8
        if let colon = utf8.firstIndex(of: UInt8(ascii: ":")), !utf8[..<colon].contains(UInt8(ascii: "/")) {
            guard let url = WebURL(text) else { return nil }
            self = .remote(url)
        } else {
            guard !utf8.contains(0), !utf8.contains(UInt8(ascii: "\\")) else { return nil }
            self = .local(text)
        }
    }
}

/// Where a link written in Markdown may lead: a path (of the site, or `#` a place on the
/// page) or an address of one of `schemes`. Checked because a browser runs a
/// `javascript:` link and opens a `data:` or `file:` one as a document of its own, and
/// cmark leaves such a link's address out of the page without a word, so that the author
/// would not know the link went dead.
public enum LinkDestination {
    public static let schemes: [String] = ["http", "https", "mailto", "tel", "sms", "geo", "webcal"]

    public static let expectation = "a path or an http, https, mailto, tel, sms, geo or webcal address"

    /// The allowed schemes, each in one word, its first byte lowest (all are 8 bytes or
    /// fewer).
    private static let allowedWords: [UInt64] = schemes.map { scheme in
        scheme.utf8.enumerated().reduce(0) { $0 | UInt64($1.element) << (8 * $1.offset) }
    }

    /// The scheme a browser reads at the start of `destination`, lowercased, when it is
    /// not one of `schemes`; nil for an allowed address or a path.
    public static func refusedScheme(of destination: String) -> String? {
        // Every link of every page is checked: the scheme is read into a word, and a
        // string is made only of one that is refused.
        var word: UInt64 = 0
        var length = 0
        var ended = false
        for byte in destination.utf8 where byte != 0x09 && byte != 0x0A && byte != 0x0D {
            if length == 0, byte <= 0x20 { continue }
            guard let lowered = schemeByte(byte, first: length == 0) else {
                ended = byte == UInt8(ascii: ":") && length > 0
                break
            }
            if length < 8 { word |= UInt64(lowered) << (8 * length) }
            length += 1
        }
        guard ended, length > 8 || !allowedWords.contains(word) else { return nil }
        return scheme(of: destination)
    }

    /// The scheme as the URL standard parses it, lowercased: the spaces and controls
    /// before the address and every tab and line break in it dropped (`java&#9;script:` is
    /// still JavaScript), then a letter and letters, digits, `+`, `-` or `.` up to a colon.
    /// Nil when something else comes before the first colon: the address is a path.
    public static func scheme(of destination: String) -> String? {
        var scheme: [UInt8] = []
        for byte in destination.utf8 where byte != 0x09 && byte != 0x0A && byte != 0x0D {
            if scheme.isEmpty, byte <= 0x20 { continue }
            guard let lowered = schemeByte(byte, first: scheme.isEmpty) else {
                return byte == UInt8(ascii: ":") && !scheme.isEmpty ? String(decoding: scheme, as: UTF8.self) : nil
            }
            scheme.append(lowered)
        }
        return nil
    }

    /// `byte` lowercased when a scheme may have it there; nil when it ends the scheme or
    /// makes the address a path.
    @inline(__always)
    private static func schemeByte(_ byte: UInt8, first: Bool) -> UInt8? {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"): byte
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): byte + 32
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."): first ? nil : byte
        default: nil
        }
    }
}

/// The last part of a URL: lowercase letters, digits and hyphens.

/// A teacher's `feed:`: where `sitegen import` reads their posts, an Atom or RSS feed on the
/// web, or a file of the site's folder (a feed saved by hand, or one another tool writes).
public enum TeacherFeed: FrontMatterValue, Hashable, Sendable, CustomStringConvertible {
    case web(WebURL)
    /// Relative to the site's folder, and inside it.
    case file(String)

    public static var expectation: String { "an http or https URL of an Atom or RSS feed, or a path inside the site's folder like feeds/ms-lee.xml" }

    public init(node: YAMLNode) throws(ValueProblem) {
        guard let text = node.scalar?.text, !text.isEmpty else { throw .mismatch }
        if let url = WebURL(text) {
            self = .web(url)
            return
        }
        if text.contains("://") || text.hasPrefix("//") {
            throw .invalid("must be an http or https URL, found '\(text)'")
        }
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard !text.hasPrefix("/"), !text.hasPrefix("~"), !parts.contains(".."), !parts.contains("") else {
            throw .invalid("must be a path inside the site's folder, like feeds/ms-lee.xml, found '\(text)'")
        }
        self = .file(text)
    }

    public var description: String {
        switch self {
        case .web(let url): url.text
        case .file(let path): path
        }
    }
}
