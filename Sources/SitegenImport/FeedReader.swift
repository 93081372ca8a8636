import Foundation
import SitegenSupport
#if canImport(FoundationXML)
import FoundationXML
#endif

/// The delegate that gathers the posts of an RSS 2.0 or Atom 1.0 feed.
final class FeedReader: NSObject, XMLParserDelegate {
    enum Kind { case rss, atom }

    static let atom = "http://www.w3.org/2005/Atom"
    static let content = "http://purl.org/rss/1.0/modules/content/"
    static let dublinCore = "http://purl.org/dc/elements/1.1/"

    private(set) var kind: Kind?
    private(set) var root: String?
    private(set) var posts: [FeedPost] = []
    /// Where the first error of the XML is: this XMLParser goes on after one, and its
    /// `parse()` may still say true.
    private(set) var errorPlace: (line: Int, column: Int)?

    /// The feed's address, then each `xml:base` and the channel's link as they are met.
    private var bases: [URL?]
    private var channelLink: URL?
    private var text = ""
    private var post: Fields?
    /// Inside an Atom `content type="xhtml"`: its elements written back as HTML, and depth.
    private var xhtmlDepth = 0

    private struct Fields {
        var id: String?
        var title = ""
        var link: String?
        var published: Date?
        var updated: Date?
        var content: String?
        var summary: String?
        var base: URL?
        var contentType = "text"
    }

    init(address: URL?) {
        bases = [address]
    }

    private var base: URL? { bases.last ?? nil }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
        if xhtmlDepth > 0 {
            xhtmlDepth += 1
            text += "<" + name + attributes.sorted { $0.key < $1.key }.map { " \($0.key)=\"\(XML.escape($0.value))\"" }.joined() + ">"
            return
        }
        let declared = attributes["xml:base"] ?? attributes["base"]
        bases.append(declared.flatMap { URL(string: $0, relativeTo: base)?.absoluteURL } ?? base)
        if root == nil {
            root = name
            if name == "rss", namespaceURI?.isEmpty ?? true { kind = .rss }
            if name == "feed", namespaceURI == Self.atom { kind = .atom }
        }
        text = ""
        switch (kind, name, namespaceURI ?? "") {
        case (.rss, "item", ""), (.atom, "entry", Self.atom):
            post = Fields(base: base)
        case (.atom, "link", Self.atom):
            let rel = attributes["rel"] ?? "alternate"
            guard rel == "alternate", let href = attributes["href"] else { break }
            let resolved = URL(string: href, relativeTo: base)?.absoluteString ?? href
            if var fields = post {
                fields.link = fields.link ?? resolved
                post = fields
            } else {
                channelLink = URL(string: resolved)
            }
        case (.atom, "content", Self.atom), (.atom, "title", Self.atom), (.atom, "summary", Self.atom):
            let type = attributes["type"] ?? "text"
            if name == "content" { post?.contentType = type }
            if type == "xhtml" { xhtmlDepth = 1 }
        default:
            break
        }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        if xhtmlDepth > 1 {
            xhtmlDepth -= 1
            text += "</\(name)>"
            return
        }
        if xhtmlDepth == 1 { xhtmlDepth = 0 }
        defer { bases.removeLast() }
        let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let namespace = namespaceURI ?? ""
        guard post != nil else {
            if kind == .rss, name == "link", namespace.isEmpty, let url = URL(string: value, relativeTo: base) {
                channelLink = url.absoluteURL
                bases[0] = bases[0] ?? channelLink
            }
            return
        }
        switch (kind, name, namespace) {
        case (.rss, "title", ""), (.atom, "title", Self.atom):
            post?.title = value
        case (.rss, "link", ""):
            post?.link = URL(string: value, relativeTo: base ?? channelLink)?.absoluteString ?? value
        case (.rss, "guid", ""), (.atom, "id", Self.atom):
            post?.id = value
        case (.rss, "pubDate", ""), (.atom, "published", Self.atom), (.rss, "date", Self.dublinCore):
            post?.published = FeedDates.parse(value)
        case (.atom, "updated", Self.atom):
            post?.updated = FeedDates.parse(value)
        case (.rss, "encoded", Self.content):
            post?.content = value
        case (.atom, "content", Self.atom):
            let type = post?.contentType
            post?.content = type == "text" ? XML.escape(value) : value
        case (.rss, "description", ""), (.atom, "summary", Self.atom):
            post?.summary = value
        case (.rss, "item", ""), (.atom, "entry", Self.atom):
            finish()
        default:
            break
        }
        text = ""
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        if errorPlace == nil { errorPlace = (parser.lineNumber, parser.columnNumber) }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        text += xhtmlDepth > 0 ? XML.escape(string) : string
    }

    func parser(_ parser: XMLParser, foundCDATA block: Data) {
        text += String(decoding: block, as: UTF8.self)
    }

    private func finish() {
        guard let fields = post else { return }
        post = nil
        let id = fields.id ?? fields.link
        guard let id, !id.isEmpty else { return }
        let html = fields.content ?? fields.summary ?? ""
        let base = fields.link.flatMap(URL.init(string:)) ?? fields.base ?? channelLink
        posts.append(FeedPost(id: id, title: fields.title, link: fields.link, published: fields.published, updated: fields.updated,
                              html: html, base: base))
    }
}

/// The dates feeds write: RFC 3339 in Atom (and Dublin Core), RFC 822 in RSS, as blogs
/// write them (a weekday or not, seconds or not, a zone name or an offset).
enum FeedDates {
    private static let rfc822Formats = ["EEE, d MMM yyyy HH:mm:ss Z", "EEE, d MMM yyyy HH:mm:ss zzz", "d MMM yyyy HH:mm:ss Z",
                                        "EEE, d MMM yyyy HH:mm Z", "EEE, d MMM yyyy HH:mm zzz", "d MMM yyyy HH:mm:ss zzz"]

    static func parse(_ text: String) -> Date? {
        let iso = ISO8601DateFormatter()
        if let date = iso.date(from: text) { return date }
        iso.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = iso.date(from: text) { return date }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        for format in rfc822Formats {
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }
}
