import Foundation
import SitegenContent
import SitegenMustache
import SitegenSupport

/// What search engines and link previews read of a page: its canonical URL, description,
/// Open Graph and Twitter tags, and for an article schema.org JSON-LD.
public struct PageMeta: Sendable {
    public var index: SiteIndex
    public var context: ViewContext
    public var homework: HomeworkViews

    public var site: Site { index.site }
    private var words: ThemeStrings { context.strings }

    /// The metadata of `planned`, published at `path` (its `path`, which the plan made once).
    public func make(for planned: PlannedPage, at path: String) -> MustacheValue {
        var title = site.title
        var description = site.description
        var type = "website"
        var image: ResolvedImage?
        var jsonLD: MustacheValue?
        // Made once: an article's JSON-LD names its page by the same URL.
        let canonical: String?
        if case .notFound = planned { canonical = nil } else { canonical = context.absoluteURL(PlannedPage.urlPath(of: path)) }
        switch planned {
        case .home(let list):
            if list.number > 1 { title = words.text("sitePage", ["site": site.title, "number": "\(list.number)"]) }
        case .article(let article):
            title = article.title
            description = article.summary
            type = "article"
            image = article.cover
            jsonLD = articleJSONLD(article, url: canonical)
        case .page(let page):
            title = page.title
            description = page.summary
        case .group(let group, let list):
            title = list.number > 1 ? words.text("groupPage", ["name": group.label.name, "number": "\(list.number)"]) : group.label.name
            description = words.text(group.kind == .meal ? "mealDescription" : "tagDescription", ["name": group.label.name, "site": site.title])
        case .groupIndex(let kind, _):
            title = words.text(kind == .meal ? "meals" : "tags")
            description = words.text(kind == .meal ? "mealsDescription" : "tagsDescription", ["site": site.title])
        case .restaurants:
            title = words.text("restaurants")
            description = words.text("restaurantsDescription", ["site": site.title])
        case .restaurant(let page):
            let entry = page.entry
            title = entry.name
            description = words.text("restaurantDescription", ["name": entry.address.map { "\(entry.name), \($0)" } ?? entry.name, "site": site.title])
            jsonLD = restaurantJSONLD(entry, url: canonical)
        case .map:
            title = words.text("map")
            description = words.text("mapDescription", ["site": site.title])
        case .homework, .teachers:
            title = planned.isTeachers ? words.text("teachers") : context.homeworkTitle
            description = [context.homeworkTitle, site.homework.school].filter { !$0.isEmpty }.joined(separator: " – ")
        case .grade(let grade):
            title = "\(context.gradeName(grade)) – \(context.homeworkTitle)"
            description = homework.sentence(of: grade)
        case .day(let grade, let day):
            title = "\(context.gradeName(grade)), \(context.formats.weekdayDate(day))"
            description = homework.sentence(of: grade, on: day)
        case .poster(let grade):
            title = words.text("poster.title", ["grade": context.gradeName(grade)])
            description = words.text("poster.lead", ["grade": context.gradeName(grade), "time": context.formats.time(site.homework.releaseTime)])
        case .notFound:
            title = words.text("pageNotFound")
        case .siteFeed, .sitemap, .robots, .gradeFeed, .gradeCalendar, .gradeJSONFeed, .gradeTonight:
            break
        }
        var fields = MustacheFields(reservingCapacity: 8)
        fields["title"] = .string(title)
        fields["description"] = .string(description)
        fields["type"] = .string(type)
        fields["isArticle"] = .bool(type == "article")
        if let canonical { fields["canonical"] = .string(canonical) }
        if let image, let url = context.absoluteImageURL(image) { fields["image"] = context.image(image, url: url) }
        if let jsonLD { fields["jsonLD"] = jsonLD }
        if !planned.isForSearchEngines { fields["noindex"] = .bool(true) }
        return .fields(fields)
    }

    /// An `Article` about a `Restaurant` with its address and coordinates (a `Review` of it,
    /// with its `Rating`, when the article rates it), written into one buffer (a String per value and per object cost more than the article's Markdown
    /// headings). Every string goes through `JSONString`, so no value can close the
    /// `<script>` around it.
    private func articleJSONLD(_ article: Article, url: String?) -> MustacheValue {
        var json = JSONWriter()
        json.open()
        json.member("@context", constant: "https://schema.org")
        // A rating is of the restaurant: without one, nothing is reviewed.
        let rating = article.restaurant == nil ? nil : article.rating
        json.member("@type", constant: rating == nil ? "Article" : "Review")
        json.member("headline", string: article.title)
        json.member("datePublished", string: RFC3339.format(article.instant, in: site.timeZone))
        if article.updated != nil { json.member("dateModified", string: RFC3339.format(article.updatedInstant, in: site.timeZone)) }
        json.member("description", string: article.summary)
        if let url { json.member("mainEntityOfPage", string: url) }
        if let cover = article.cover, let imageURL = context.absoluteImageURL(cover) {
            json.member("image", string: imageURL)
        }
        if let author = article.author {
            json.open("author")
            json.member("@type", constant: "Person")
            json.member("name", string: author.name)
            if let username = author.username { json.member("alternateName", string: "@" + username) }
            json.close()
        }
        if !article.tags.isEmpty {
            json.member("keywords", string: article.tags.map { $0.name }.joined(separator: ", "))
        }
        if let restaurant = article.restaurant {
            json.open(rating == nil ? "about" : "itemReviewed")
            json.restaurant(restaurant)
            if let price = article.price {
                json.member("priceRange", string: context.formats.price(price))
            }
            json.close()
        }
        if let rating {
            json.open("reviewRating")
            json.member("@type", constant: "Rating")
            json.member("ratingValue", digits: rating.text)
            json.member("bestRating", digits: "5")
            json.member("worstRating", digits: "0")
            json.close()
        }
        json.close()
        return .utf8(json.bytes[...])
    }
}

extension PageMeta {
    /// A `Restaurant` on its own page, with the page's URL.
    fileprivate func restaurantJSONLD(_ entry: RestaurantEntry, url: String?) -> MustacheValue {
        var json = JSONWriter()
        json.open()
        json.member("@context", constant: "https://schema.org")
        json.restaurant(entry.restaurant)
        if let url { json.member("url", string: url) }
        json.close()
        return .utf8(json.bytes[...])
    }
}

extension JSONWriter {
    /// The members of a schema.org `Restaurant`: its type, name, address and coordinates.
    public mutating func restaurant(_ restaurant: Restaurant) {
        member("@type", constant: "Restaurant")
        if let name = restaurant.name { member("name", string: name) }
        if let address = restaurant.address {
            open("address")
            member("@type", constant: "PostalAddress")
            member("streetAddress", string: address)
            close()
        }
        if let latitude = restaurant.latitude, let longitude = restaurant.longitude {
            open("geo")
            member("@type", constant: "GeoCoordinates")
            member("latitude", number: latitude)
            member("longitude", number: longitude)
            close()
        }
    }
}

/// A JSON object written member by member into one buffer, names and strings quoted by
/// `JSONString`.
public struct JSONWriter {
    private(set) var bytes: [UInt8] = []
    /// Whether the object being written has a member yet (a comma goes before the next).
    private var hasMember = false

    public init() {
        // An article's JSON-LD is about a kilobyte, often more.
        bytes.reserveCapacity(2048)
    }

    /// Opens an object, as the member `name` of the one being written when given.
    mutating func open(_ name: StaticString? = nil) {
        if let name { self.name(name) }
        bytes.append(UInt8(ascii: "{"))
        hasMember = false
    }

    public mutating func close() {
        bytes.append(UInt8(ascii: "}"))
        hasMember = true
    }

    public mutating func member(_ name: StaticString, string value: String) {
        self.name(name)
        JSONString.append(value, to: &bytes)
        hasMember = true
    }

    /// A member whose value is written in the source, like its name, and needs no escape.
    public mutating func member(_ name: StaticString, constant value: StaticString) {
        self.name(name)
        appendQuoted(value)
        hasMember = true
    }

    public mutating func member(_ name: StaticString, number value: Double) {
        self.name(name)
        MapLinks.appendCoordinate(value, to: &bytes)
        hasMember = true
    }

    /// A number already written as JSON writes one: digits, with a point between them.
    mutating func member(_ name: StaticString, digits: String) {
        self.name(name)
        bytes.append(contentsOf: digits.utf8)
        hasMember = true
    }

    /// Names are written in the source: none needs the escapes values are checked for.
    private mutating func name(_ name: StaticString) {
        if hasMember { bytes.append(UInt8(ascii: ",")) }
        appendQuoted(name)
        bytes.append(UInt8(ascii: ":"))
    }

    private mutating func appendQuoted(_ text: StaticString) {
        bytes.append(UInt8(ascii: "\""))
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
    }
}

extension PlannedPage {
    /// The URL path of a page published at `path`, relative to the site: `articles/x/`
    /// for `articles/x/index.html`.
    public static func urlPath(of path: String) -> String {
        path.utf8.count >= 10 && path.utf8.suffix(10).elementsEqual("index.html".utf8) ? String(path.utf8.dropLast(10))! : path
    }

    public var isTeachers: Bool {
        if case .teachers = self { true } else { false }
    }

    /// Whether search engines may list the page (it is in the sitemap, and has no
    /// `noindex`): not the 404 page, nor the page of a group of drafts only.
    public var isForSearchEngines: Bool {
        switch self {
        case .notFound: false
        case .group(let group, _): group.isPublished
        default: true
        }
    }
}

extension ViewContext {
    /// `https://example.org/food/articles/x/`, or nil when the site has no `base_url`.
    public func absoluteURL(_ path: String) -> String? {
        site.origin.map { $0 + url(path) }
    }

    public func absoluteImageURL(_ image: ResolvedImage) -> String? {
        switch image.location {
        case .remote(let url): url
        case .site(let path):
            // Link previews show a photo large: its widest fallback size.
            absoluteURL(image.photo.flatMap { PhotoCandidates(path: path, photo: $0, settings: site.images).of($0.fallback).last?.path } ?? path)
        }
    }
}
