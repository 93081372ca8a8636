import Foundation
import SitegenContent
import SitegenSupport

/// A JSON Feed 1.1 (jsonfeed.org/version/1.1): the same entries as an Atom feed, for
/// readers and bots that take JSON. Every string is escaped by `JSONString`; times are
/// RFC 3339 in the site's offset.
public struct JSONFeed {
    public var atom: AtomFeed
    public var feedURL: String
    public var language: String

    public init(_ atom: AtomFeed, feedURL: String, language: String) {
        self.atom = atom
        self.feedURL = feedURL
        self.language = language
    }

    public func render() -> [UInt8] {
        var json = JSONObject()
        json.add("version", "https://jsonfeed.org/version/1.1")
        json.add("title", atom.title)
        json.add("home_page_url", atom.link)
        json.add("feed_url", feedURL)
        if let subtitle = atom.subtitle, !subtitle.isEmpty { json.add("description", subtitle) }
        json.add("language", language)
        json.addRaw("authors", "[" + JSONObject.with { $0.add("name", atom.authorName) } + "]")
        let items = atom.entries.map { entry in
            JSONObject.with { item in
                item.add("id", entry.id)
                item.add("url", entry.link)
                item.add("title", entry.title)
                // JSON Feed needs content_html or content_text: an entry with no details
                // has its summary, or its title, as text.
                if let html = entry.contentHTML, !html.isEmpty {
                    item.add("content_html", String(decoding: html, as: UTF8.self))
                } else {
                    item.add("content_text", entry.summary ?? entry.title)
                }
                if let summary = entry.summary, !summary.isEmpty { item.add("summary", summary) }
                item.add("date_published", RFC3339.format(entry.published, in: atom.timeZone))
                item.add("date_modified", RFC3339.format(entry.updated, in: atom.timeZone))
                if let name = entry.authorName { item.addRaw("authors", "[" + JSONObject.with { $0.add("name", name) } + "]") }
                if let category = entry.category { item.addRaw("tags", "[" + JSONString.quote(category) + "]") }
            }
        }
        json.addRaw("items", "[" + items.joined(separator: ",\n") + "]")
        return Array((json.text + "\n").utf8)
    }
}

/// A JSON object written member by member, each value escaped.
struct JSONObject {
    private var members: [String] = []

    mutating func add(_ key: String, _ value: String) {
        members.append(JSONString.quote(key) + ":" + JSONString.quote(value))
    }

    mutating func add(_ key: String, _ value: Int) {
        members.append(JSONString.quote(key) + ":" + String(value))
    }

    /// `value` is JSON already.
    mutating func addRaw(_ key: String, _ value: String) {
        members.append(JSONString.quote(key) + ":" + value)
    }

    var text: String { "{" + members.joined(separator: ",") + "}" }

    static func with(_ fill: (inout JSONObject) -> Void) -> String {
        var object = JSONObject()
        fill(&object)
        return object.text
    }
}
