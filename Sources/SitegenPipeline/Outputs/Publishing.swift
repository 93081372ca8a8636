import Foundation
import SitegenContent
import SitegenSupport
import SitegenMustache

/// What a published site needs besides its pages: the feed of articles, the sitemap and
/// robots.txt.
public enum Publishing {
    /// Articles the site feed carries, newest first.
    public static let feedLength = 50

    public static func feed(_ index: SiteIndex, context: ViewContext) -> AtomFeed {
        let site = index.site
        let entries = index.articles.prefix(feedLength).map { article -> AtomFeed.Entry in
            let absolute = context.absoluteURL(article.pagePath)
            let url = absolute ?? ""
            return AtomFeed.Entry(
                id: url,
                title: article.title,
                link: url,
                published: article.instant,
                updated: article.updatedInstant,
                authorName: article.author?.name,
                category: article.meal?.name,
                summary: article.summary,
                contentHTML: absolutized(content(of: article, context: context), context: context),
                contentBase: absolute
            )
        }
        return AtomFeed(
            id: context.absoluteURL("") ?? "",
            title: site.title,
            subtitle: site.description,
            link: context.absoluteURL("") ?? "",
            selfLink: context.absoluteURL("feed.xml") ?? "",
            updated: entries.map(\.updated).max() ?? index.homework.momentInstant,
            authorName: site.author?.name ?? site.title,
            entries: Array(entries),
            timeZone: site.timeZone
        )
    }

    /// The whole article as UTF-8: its cover, the story and every photo with its text.
    public static func content(of article: Article, context: ViewContext) -> [UInt8] {
        var html: [UInt8] = []
        func image(_ image: ResolvedImage) {
            var tag = "<p><img src=\"\(HTMLEscaping.escape(context.url(of: image)))\" alt=\"\(HTMLEscaping.escape(image.alt))\""
            if let width = image.width, let height = image.height { tag += " width=\"\(width)\" height=\"\(height)\"" }
            html.append(contentsOf: (tag + "></p>\n").utf8)
        }
        if let cover = article.cover { image(cover) }
        article.mainHTML.withUTF8 { html.append(contentsOf: $0) }
        for sub in article.subContents {
            image(sub.image)
            sub.html.withUTF8 { html.append(contentsOf: $0) }
        }
        return html
    }

    /// Root-relative URLs of UTF-8 `html` made absolute, so feed readers that ignore
    /// `xml:base` still find every link and image. The HTML is sitegen's own (cmark's and
    /// the lines above), whose attributes are always double-quoted.
    public static func absolutized(_ bytes: [UInt8], context: ViewContext) -> [UInt8] {
        guard let origin = context.site.origin else { return bytes }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + 256)
        let quote = UInt8(ascii: "\""), slash = UInt8(ascii: "/")
        func attribute(_ name: StaticString, endsAt end: Int) -> Bool {
            let count = name.utf8CodeUnitCount
            guard end >= count else { return false }
            return name.withUTF8Buffer { name in (0..<count).allSatisfy { bytes[end - count + $0] == name[$0] } }
        }
        // Found at each `"/` that does not start `"//`, rather than by trying both
        // attributes at every byte; runs between matches are copied whole.
        var copied = 0
        var index = 0
        while index + 1 < bytes.count {
            if bytes[index] == quote, bytes[index + 1] == slash, index + 2 == bytes.count || bytes[index + 2] != slash,
               attribute("src=", endsAt: index) || attribute("href=", endsAt: index) {
                output.append(contentsOf: bytes[copied...index])
                output.append(contentsOf: origin.utf8)
                output.append(slash)
                index += 2
                copied = index
            } else {
                index += 1
            }
        }
        output.append(contentsOf: bytes[copied..<bytes.count])
        return output
    }

    public static func sitemap(_ index: SiteIndex, context: ViewContext) -> [UInt8] {
        // Every page a search engine may list (`SiteIndex.searchablePages`).
        // One buffer for thousands of pages, as for the feeds.
        var xml = Array("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n".utf8)
        for (page, path) in index.searchablePages {
            guard let url = context.absoluteURL(PlannedPage.urlPath(of: path)) else { continue }
            xml.append(contentsOf: "  <url><loc>".utf8)
            XML.append(url, to: &xml)
            xml.append(contentsOf: "</loc>".utf8)
            if case .article(let article) = page {
                xml.append(contentsOf: "<lastmod>".utf8)
                xml.append(contentsOf: (article.updated ?? article.date).date.description.utf8)
                xml.append(contentsOf: "</lastmod>".utf8)
            }
            xml.append(contentsOf: "</url>\n".utf8)
        }
        xml.append(contentsOf: "</urlset>\n".utf8)
        return xml
    }

    public static func robots(context: ViewContext) -> [UInt8] {
        var text = "User-agent: *\nAllow: /\n"
        if let sitemap = context.absoluteURL("sitemap.xml") { text += "\nSitemap: \(sitemap)\n" }
        return Array(text.utf8)
    }
}
