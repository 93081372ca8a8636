import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// One post of a teacher's feed, as the feed gives it.
public struct FeedPost: Sendable, Equatable {
    /// The post's id: Atom's `id`, RSS's `guid`, else its link.
    public var id: String
    public var title: String
    /// Absolute, resolved against the feed.
    public var link: String?
    public var published: Date?
    public var updated: Date?
    /// The post's HTML (Atom `content`, RSS `content:encoded`, else the summary or
    /// `description`), with the address its relative links are relative to.
    public var html: String
    public var base: URL?
}

/// Why a feed could not be read, in words for the person who runs `sitegen import`.
public struct FeedProblem: Error, Sendable, Equatable {
    public var message: String
}

/// An RSS 2.0 or Atom 1.0 feed read with Foundation's XMLParser. A feed that declares
/// entities is refused before it is parsed (entities are how "billion laughs" documents
/// grow a few kilobytes into gigabytes), external entities are never fetched, and a web
/// page given in place of a feed is told apart, with the feed it links to when it does.
public enum FeedDocument {
    /// More posts than this are left out, newest kept: a feed's whole history is not homework.
    public static let postLimit = 200

    public static func posts(in data: Data, address: URL?) throws(FeedProblem) -> [FeedPost] {
        let head = String(decoding: data.prefix(2048), as: UTF8.self).lowercased()
        if head.contains("<html") || head.contains("<!doctype html") {
            var message = "is a web page, not a feed"
            if let link = HTMLFeedLinks.first(in: data, base: address) {
                message += ": it links to the feed \(link); give that as 'feed' in teachers.yaml"
            } else {
                message += ", and links to none: give the address of the blog's RSS or Atom feed as 'feed' in teachers.yaml"
            }
            throw FeedProblem(message: message)
        }
        if data.range(of: Data("<!ENTITY".utf8)) != nil {
            throw FeedProblem(message: "declares XML entities (<!ENTITY …>), which sitegen does not read: a feed never needs them")
        }
        let reader = FeedReader(address: address)
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = true
        parser.shouldResolveExternalEntities = false
        parser.delegate = reader
        let parsed = parser.parse()
        if let place = reader.errorPlace ?? (parsed ? nil : (parser.lineNumber, parser.columnNumber)) {
            throw FeedProblem(message: "is not well-formed XML at line \(place.line), column \(place.column)")
        }
        guard reader.kind != nil else {
            throw FeedProblem(message: "is XML but neither RSS nor Atom: its root element is <\(reader.root ?? "?")>")
        }
        let posts = reader.posts.sorted { ($0.published ?? $0.updated ?? .distantPast) > ($1.published ?? $1.updated ?? .distantPast) }
        return Array(posts.prefix(postLimit))
    }
}

/// The `<link rel="alternate" type="application/rss+xml">` of a web page, for the message.
enum HTMLFeedLinks {
    static func first(in data: Data, base: URL?) -> String? {
        let text = String(decoding: data.prefix(262_144), as: UTF8.self)
        for match in text.matches(of: #/<link\b[^>]*>/#.ignoresCase()) {
            let tag = String(match.0)
            let lowered = tag.lowercased()
            guard lowered.contains("alternate"), lowered.contains("application/rss+xml") || lowered.contains("application/atom+xml"),
                  let href = tag.firstMatch(of: #/href\s*=\s*["']([^"']+)["']/#.ignoresCase()) else { continue }
            let value = String(href.1)
            return URL(string: value, relativeTo: base)?.absoluteString ?? value
        }
        return nil
    }
}
