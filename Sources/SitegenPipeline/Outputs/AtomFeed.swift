import Foundation
import SitegenContent
import SitegenSupport

/// An Atom 1.0 feed (RFC 4287). Every value is escaped for XML; times are RFC 3339 with
/// the site's offset; nothing depends on when the build runs but the moment it is given.
public struct AtomFeed {
    public struct Entry {
        public var id: String
        public var title: String
        public var link: String
        public var published: Int
        public var updated: Int
        public var authorName: String?
        public var category: String?
        public var summary: String?
        /// HTML as UTF-8 (valid), escaped into the feed; relative URLs in it resolve against
        /// `contentBase`. Bytes: it is whole articles, made of bytes and written as bytes.
        public var contentHTML: [UInt8]?
        public var contentBase: String?
    }

    public var id: String
    public var title: String
    public var subtitle: String?
    public var link: String
    public var selfLink: String
    public var updated: Int
    public var authorName: String
    public var entries: [Entry]
    public var timeZone: TimeZone

    /// The feed, written into one buffer: a feed carries whole articles, and a String
    /// per escaped value and per line cost more than escaping them.
    public func render() -> [UInt8] {
        var xml: [UInt8] = []
        xml.reserveCapacity(4096 + entries.reduce(0) { $0 + ($1.contentHTML?.count ?? 0) + ($1.summary?.utf8.count ?? 0) + 512 })
        func text(_ literal: String) { xml.append(contentsOf: literal.utf8) }
        func escaped(_ value: String) { XML.append(value, to: &xml) }
        text("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\">\n")
        text("  <id>"); escaped(id); text("</id>\n")
        text("  <title>"); escaped(title); text("</title>\n")
        if let subtitle, !subtitle.isEmpty { text("  <subtitle>"); escaped(subtitle); text("</subtitle>\n") }
        text("  <link rel=\"alternate\" type=\"text/html\" href=\""); escaped(link); text("\"/>\n")
        text("  <link rel=\"self\" type=\"application/atom+xml\" href=\""); escaped(selfLink); text("\"/>\n")
        text("  <updated>"); text(RFC3339.format(updated, in: timeZone)); text("</updated>\n")
        text("  <author><name>"); escaped(authorName); text("</name></author>\n")
        text("  <generator>sitegen</generator>\n")
        for entry in entries {
            text("  <entry>\n")
            text("    <id>"); escaped(entry.id); text("</id>\n")
            text("    <title>"); escaped(entry.title); text("</title>\n")
            text("    <link rel=\"alternate\" type=\"text/html\" href=\""); escaped(entry.link); text("\"/>\n")
            text("    <published>"); text(RFC3339.format(entry.published, in: timeZone)); text("</published>\n")
            text("    <updated>"); text(RFC3339.format(entry.updated, in: timeZone)); text("</updated>\n")
            if let name = entry.authorName { text("    <author><name>"); escaped(name); text("</name></author>\n") }
            if let category = entry.category { text("    <category term=\""); escaped(category); text("\"/>\n") }
            if let summary = entry.summary, !summary.isEmpty { text("    <summary>"); escaped(summary); text("</summary>\n") }
            if let html = entry.contentHTML, !html.isEmpty {
                text("    <content type=\"html\"")
                if let base = entry.contentBase { text(" xml:base=\""); escaped(base); text("\"") }
                text(">"); html.withUnsafeBufferPointer { XML.append($0, to: &xml) }; text("</content>\n")
            }
            text("  </entry>\n")
        }
        text("</feed>\n")
        return xml
    }
}

public enum RFC3339 {
    /// `2026-11-25T14:00:00+08:00`: the instant in the site's offset at that instant.
    public static func format(_ instant: Int, in zone: TimeZone) -> String {
        let offset = zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(instant)))
        let local = instant + offset
        let day = local.floorDivided(by: 86_400)
        let second = local - day * 86_400
        let date = CalendarDate(dayNumber: day).description
        // Into one string of its length: every article's JSON-LD and feed entry has two,
        // and eleven pieces joined cost more than the offset's look-up in the zone.
        let length = date.utf8.count + (offset == 0 ? 10 : 15)
        return String(unsafeUninitializedCapacity: length) { bytes in
            var place = 0
            func put(_ byte: UInt8) {
                bytes[place] = byte
                place += 1
            }
            func two(_ value: Int) {
                put(UInt8(ascii: "0") + UInt8(value / 10 % 10))
                put(UInt8(ascii: "0") + UInt8(value % 10))
            }
            for byte in date.utf8 { put(byte) }
            put(UInt8(ascii: "T"))
            two(second / 3600)
            put(UInt8(ascii: ":"))
            two(second % 3600 / 60)
            put(UInt8(ascii: ":"))
            two(second % 60)
            if offset == 0 {
                put(UInt8(ascii: "Z"))
            } else {
                // Offsets are under a day, so their hours have two digits.
                put(offset < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
                two(abs(offset) / 3600)
                put(UInt8(ascii: ":"))
                two(abs(offset) % 3600 / 60)
            }
            return place
        }
    }
}
