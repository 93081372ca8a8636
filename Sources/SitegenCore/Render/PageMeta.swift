import Foundation
import SitegenMustache
import SitegenSupport

/// What search engines and link previews read of a page: its canonical URL, description,
/// Open Graph and Twitter tags, and for an article schema.org JSON-LD.
struct PageMeta: Sendable {
    var index: SiteIndex
    var context: ViewContext
    var homework: HomeworkViews

    var site: Site { index.site }

    func make(for planned: PlannedPage) -> MustacheValue {
        var title = site.title
        var description = site.description
        var type = "website"
        var image: ResolvedImage?
        var jsonLD: String?
        switch planned {
        case .home(let list):
            if list.number > 1 { title = "\(site.title), page \(list.number)" }
        case .article(let article):
            title = article.title
            description = article.summary
            type = "article"
            image = article.cover
            jsonLD = articleJSONLD(article, url: context.absoluteURL(planned.urlPath))
        case .page(let page):
            title = page.title
            description = page.summary
        case .group(let group, let list):
            title = group.label.name + (list.number > 1 ? ", page \(list.number)" : "")
            description = group.kind == .meal ? "\(group.label.name): articles about it on \(site.title)" : "Articles tagged \(group.label.name) on \(site.title)"
        case .groupIndex(let kind):
            title = kind == .meal ? "Meals" : "Tags"
            description = "Every \(kind == .meal ? "meal" : "tag") of \(site.title) with its articles"
        case .restaurants:
            title = "Restaurants"
            description = "Every restaurant of \(site.title) with its address and articles"
        case .map:
            title = "Map"
            description = "Every restaurant of \(site.title) on one map"
        case .homework, .teachers:
            title = planned.isTeachers ? "Teachers" : site.homework.title
            description = [site.homework.title, site.homework.school].filter { !$0.isEmpty }.joined(separator: " – ")
        case .grade(let grade):
            title = "\(GradeNames.name(of: grade)) – \(site.homework.title)"
            description = homework.sentence(of: grade)
        case .day(let grade, let day):
            title = "\(GradeNames.name(of: grade)), \(context.formats.weekdayDate(day))"
            description = homework.sentence(of: grade, on: day)
        case .notFound:
            title = "Page not found"
        case .siteFeed, .sitemap, .robots, .gradeFeed, .gradeCalendar:
            break
        }
        var fields: [String: MustacheValue] = [
            "title": .string(title),
            "description": .string(description),
            "type": .string(type),
            "isArticle": .bool(type == "article"),
        ]
        if case .notFound = planned {} else if let url = context.absoluteURL(planned.urlPath) {
            fields["canonical"] = .string(url)
        }
        if let image, let url = context.absoluteImageURL(image) {
            var imageFields: [String: MustacheValue] = ["url": .string(url), "alt": .string(image.alt)]
            if let width = image.width { imageFields["width"] = .int(width) }
            if let height = image.height { imageFields["height"] = .int(height) }
            fields["image"] = .dictionary(imageFields)
        }
        if let jsonLD { fields["jsonLD"] = .string(jsonLD) }
        return .dictionary(fields)
    }

    /// An `Article` about a `Restaurant` with its address and coordinates. Every string
    /// goes through `JSONText`, so no value can close the `<script>` around it.
    private func articleJSONLD(_ article: Article, url: String?) -> String {
        var members: [(String, String)] = [
            ("@context", JSONText.string("https://schema.org")),
            ("@type", JSONText.string("Article")),
            ("headline", JSONText.string(article.title)),
            ("datePublished", JSONText.string(RFC3339.format(article.instant, in: site.timeZone))),
            ("description", JSONText.string(article.summary)),
        ]
        if let url { members.append(("mainEntityOfPage", JSONText.string(url))) }
        if let cover = article.cover, let imageURL = context.absoluteImageURL(cover) {
            members.append(("image", JSONText.string(imageURL)))
        }
        if let author = article.author {
            var person = [("@type", JSONText.string("Person")), ("name", JSONText.string(author.name))]
            if let username = author.username { person.append(("alternateName", JSONText.string("@" + username))) }
            members.append(("author", JSONText.object(person)))
        }
        if !article.tags.isEmpty {
            members.append(("keywords", JSONText.string(article.tags.map(\.name).joined(separator: ", "))))
        }
        if let restaurant = article.restaurant {
            var place = [("@type", JSONText.string("Restaurant"))]
            if let name = restaurant.name { place.append(("name", JSONText.string(name))) }
            if let address = restaurant.address {
                place.append(("address", JSONText.object([("@type", JSONText.string("PostalAddress")), ("streetAddress", JSONText.string(address))])))
            }
            if let latitude = restaurant.latitude, let longitude = restaurant.longitude {
                place.append(("geo", JSONText.object([("@type", JSONText.string("GeoCoordinates")), ("latitude", JSONText.number(latitude)), ("longitude", JSONText.number(longitude))])))
            }
            if let price = article.price {
                place.append(("priceRange", JSONText.string(context.formats.price(price))))
            }
            members.append(("about", JSONText.object(place)))
        }
        return JSONText.object(members)
    }
}

extension PlannedPage {
    /// The URL path of the page, relative to the site: `articles/x/` for `articles/x/index.html`.
    var urlPath: String {
        let path = self.path
        return path.hasSuffix("index.html") ? String(path.dropLast("index.html".count)) : path
    }

    var isTeachers: Bool {
        if case .teachers = self { true } else { false }
    }
}

extension ViewContext {
    /// `https://example.org/food/articles/x/`, or nil when the site has no `base_url`.
    func absoluteURL(_ path: String) -> String? {
        site.origin.map { $0 + url(path) }
    }

    func absoluteImageURL(_ image: ResolvedImage) -> String? {
        switch image.location {
        case .remote(let url): url
        case .site(let path): absoluteURL(path)
        }
    }
}

extension JSONText {
    /// `members` are names and JSON values.
    static func object(_ members: [(String, String)]) -> String {
        var bytes: [UInt8] = [UInt8(ascii: "{")]
        bytes.reserveCapacity(members.reduce(2) { $0 + $1.0.utf8.count + $1.1.utf8.count + 4 })
        for (index, member) in members.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            JSONString.append(member.0, to: &bytes)
            bytes.append(UInt8(ascii: ":"))
            bytes.append(contentsOf: member.1.utf8)
        }
        bytes.append(UInt8(ascii: "}"))
        return String(decoding: bytes, as: UTF8.self)
    }
}
