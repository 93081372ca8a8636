import Foundation
import SitegenContent
import SitegenLocking
import SitegenMustache
import SitegenSupport

/// What a page template sees of the site (`{{site.title}}`, `{{site.root}}`).
public struct SiteView: MustacheObject {
    public var site: Site
    public var pages: [MustacheValue]
    /// Fingerprinted asset URLs by extension and name: `{{site.assets.css.style}}`.
    public var assets: MustacheValue
    /// The theme's words (`t`), here too so that the header and footer, rendered over the
    /// site, find them in it and are made once for every page.
    public var strings: MustacheValue = .null
    /// `homework.title`, or the theme's word for it.
    public var homeworkTitle = "Homework"

    /// One site per render run: the header and footer, rendered over it, are made once for
    /// every page instead of tag by tag on each.
    public var mustacheIdentity: MustacheIdentity? { SiteView.identity }
    private static let identity = MustacheIdentity("site")

    /// Told apart by length first, as `ArticleView.member` is: every name a page looks up
    /// that no view above has comes down to the site, a dozen comparisons each.
    public func mustacheMember(_ key: String) -> MustacheValue? {
        switch key.utf8.count {
        case 1:
            switch key {
            case "t": strings
            default: nil
            }
        case 4:
            switch key {
            case "root": .string(site.basePath)
            default: nil
            }
        case 5:
            switch key {
            case "title": .string(site.title)
            case "pages": .array(pages)
            case "extra": site.extra.mustacheValue
            default: nil
            }
        case 6:
            switch key {
            case "school": .string(site.homework.school)
            case "assets": assets
            case "locale": .string(String(site.language.text.map { $0 == "-" ? "_" : $0 }))
            default: nil
            }
        case 7:
            switch key {
            case "feedURL": site.origin == nil ? .null : .string(site.basePath + "feed.xml")
            default: nil
            }
        case 8:
            switch key {
            case "language": .string(site.language.text)
            case "timezone": .string(site.timeZoneName)
            default: nil
            }
        case 11:
            switch key {
            case "description": .string(site.description)
            case "hasHomework": .bool(!site.homework.grades.isEmpty)
            default: nil
            }
        case 13:
            switch key {
            case "homeworkTitle": .string(homeworkTitle)
            default: nil
            }
        default:
            nil
        }
    }
}

/// Everything a view of a model needs besides the model. A class: every view of every
/// card and row holds it, and a copy of the site's settings was a retain for each of
/// their strings.
public final class ViewContext: Sendable {
    public let site: Site
    public let formats: Formats
    /// The build's instant for articles' dates (`BuildSettings.clock`): an article dated
    /// after it, shown by `--future` or `serve`, is marked as scheduled.
    public let clock: Int
    public let strings: ThemeStrings
    /// The record of each meal and tag, by name (its slug comes from its name), made once:
    /// every article shows half a dozen, and a site has a few hundred.
    private let meals = TextMemo<MustacheValue>(limit: 10_000)
    private let tags = TextMemo<MustacheValue>(limit: 10_000)
    /// The record of each restaurant, made once for all its articles: its map's links are
    /// most of an article's values, and a site has far fewer restaurants than articles.
    private let restaurants = Memo<RestaurantKey, MustacheValue>(limit: 10_000)
    /// The slug of each article's restaurant page (`SiteIndex.restaurantSlugs`), told when
    /// the index is made: the views are made ahead of it, on the other core.
    private let restaurantSlugs = Locked<[String: String]>([:])
    /// Each photo's colour, shown while it loads (`Photos.Output.colours`).
    public let photoColours: PhotoColours

    /// A restaurant as written, its coordinates by their bits: -0.0 and 0.0 are equal as
    /// numbers but not as text.
    private struct RestaurantKey: Hashable, Sendable {
        public var name: String?
        public var address: String?
        public var latitude: UInt64?
        public var longitude: UInt64?
        public var slug: String?

        public init(_ restaurant: Restaurant) {
            name = restaurant.name
            address = restaurant.address
            latitude = restaurant.latitude?.bitPattern
            longitude = restaurant.longitude?.bitPattern
            slug = restaurant.slug
        }
    }

    public init(site: Site, formats: Formats, clock: Int = .max, strings: ThemeStrings = .english, photoColours: PhotoColours = PhotoColours()) {
        self.site = site
        self.formats = formats
        self.clock = clock
        self.strings = strings
        self.photoColours = photoColours
    }

    public func url(_ path: String) -> String { site.basePath + path.urlPathEncoded }

    /// The index's restaurant page of each article, by source path.
    public func useRestaurantSlugs(_ slugs: [String: String]) {
        restaurantSlugs.withLock { $0 = slugs }
    }

    /// The restaurant of the article at `sourcePath` as templates read it: its name,
    /// address and map links, and its page's URL.
    public func restaurant(_ restaurant: Restaurant, of sourcePath: String) -> MustacheValue {
        let slug = restaurantSlugs.withLock { $0[sourcePath] } ?? restaurant.slug
        let onPage = Restaurant(name: restaurant.name, address: restaurant.address, latitude: restaurant.latitude, longitude: restaurant.longitude, slug: slug)
        return restaurants.value(for: RestaurantKey(onPage)) { _ in .fields(restaurantFields(onPage)) }
    }

    /// `restaurant(_:)`'s fields, for a view that adds its own (a restaurant's page).
    public func restaurantFields(_ restaurant: Restaurant) -> MustacheFields {
        var fields = MustacheFields(reservingCapacity: 10)
        fields["name"] = restaurant.name.map(MustacheValue.string) ?? MustacheValue.null
        fields["address"] = restaurant.address.map(MustacheValue.string) ?? MustacheValue.null
        fields["hasCoordinates"] = .bool(restaurant.hasCoordinates)
        fields["mapTitle"] = .string(restaurant.name.map { strings.text("mapOf", ["name": $0]) } ?? strings.text("mapOfTheRestaurant"))
        // Every published article's restaurant has its page.
        if let slug = restaurant.slug {
            fields["slug"] = .string(slug)
            fields["url"] = .string(url(RestaurantEntry.path(ofSlug: slug)))
        }
        if let latitude = restaurant.latitude, let longitude = restaurant.longitude {
            let links = MapLinks(latitude: latitude, longitude: longitude, zoom: site.mapZoom)
            fields["embedURL"] = .string(links.embedURL)
            fields["largerMapURL"] = .string(links.largerMapURL)
            fields["directionsURL"] = .string(links.directionsURL)
            fields["lat"] = .string(links.latitudeText)
            fields["lon"] = .string(links.longitudeText)
        }
        return fields
    }

    /// Where an image is: its file in the site (a photo's fallback size), or the remote
    /// address as written.
    public func url(of image: ResolvedImage) -> String {
        switch image.location {
        case .site(let path): url(image.photo.map { PhotoCandidates(path: path, photo: $0, settings: site.images).fallbackSource.path } ?? path)
        case .remote(let remote): remote
        }
    }

    public func image(_ image: ResolvedImage) -> MustacheValue {
        self.image(image, url: url(of: image))
    }

    /// An image's URL, text and size as templates read them, with the URL given (a page's
    /// meta tags give it absolute).
    public func image(_ image: ResolvedImage, url: String) -> MustacheValue {
        if let photo = image.photo, case .site(let path) = image.location {
            return photoFields(path: path, photo: photo, alt: image.alt, absoluteURL: url.hasPrefix("http") ? url : nil)
        }
        var fields = MustacheFields(reservingCapacity: 4)
        fields["url"] = .string(url)
        fields["alt"] = .string(image.alt)
        if let width = image.width { fields["width"] = .int(width) }
        if let height = image.height { fields["height"] = .int(height) }
        return .fields(fields)
    }

    /// A photo as templates read it: the fallback's URL, every size and format made of it,
    /// `srcset`s, and its colour.
    /// `absoluteURL`: the photo's URL in a page's meta tags, where every URL is absolute.
    private func photoFields(path: String, photo: PhotoFile, alt: String, absoluteURL: String?) -> MustacheValue {
        let candidates = PhotoCandidates(path: path, photo: photo, settings: site.images)
        let address = { (path: String) in (absoluteURL != nil ? self.site.origin ?? "" : "") + self.url(path) }
        var fields = MustacheFields(reservingCapacity: 10)
        // Link previews name one file, the widest fallback, and its size.
        let shown = absoluteURL != nil ? candidates.of(candidates.fallback).last ?? candidates.fallbackSource : nil
        fields["url"] = .string(absoluteURL ?? address(candidates.fallbackSource.path))
        fields["alt"] = .string(alt)
        fields["width"] = .int(shown?.width ?? photo.width)
        fields["height"] = .int(shown?.height ?? photo.height)
        fields["srcset"] = .string(candidates.sourceSet(candidates.fallback, url: address))
        fields["type"] = .string(candidates.fallback.mediaType)
        fields["sources"] = .array(candidates.offered.map { encoding in
            .fields(["type": .string(encoding.mediaType), "srcset": .string(candidates.sourceSet(encoding, url: address))])
        })
        fields["candidates"] = .array(candidates.candidates.map { candidate in
            .fields(["url": .string(address(candidate.path)), "width": .int(candidate.width), "height": .int(candidate.height), "format": .string(candidate.encoding.rawValue)])
        })
        if let original = candidates.original { fields["original"] = .string(address(original.path)) }
        if let colour = photoColours[path] { fields["placeholder"] = .string(colour) }
        return .fields(fields)
    }
}

extension MustacheValue {
    /// Whether two values print alike through any template; an object is alike only to
    /// itself, which cannot be told, so never; records of fields are compared field by field.
    public static func same(_ a: MustacheValue?, _ b: MustacheValue?) -> Bool {
        switch (a, b) {
        case (nil, nil), (.null?, .null?): true
        case (.bool(let x)?, .bool(let y)?): x == y
        case (.int(let x)?, .int(let y)?): x == y
        case (.double(let x)?, .double(let y)?): x == y
        case (.string(let x)?, .string(let y)?): x == y
        case (.bytes(let x)?, .bytes(let y)?): x.bytes.elementsEqual(y.bytes)
        case (.string(let x)?, .bytes(let y)?), (.bytes(let y)?, .string(let x)?): x.utf8.elementsEqual(y.bytes)
        case (.array(let x)?, .array(let y)?): x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
        case (.dictionary(let x)?, .dictionary(let y)?): x.count == y.count && x.allSatisfy { key, value in y[key].map { same(value, $0) } ?? false }
        case (.fields(let x)?, .fields(let y)?): x.count == y.count && x.entries.allSatisfy { name, value in y[name].map { same(value, $0) } ?? false }
        default: false
        }
    }
}

extension ViewContext {
    /// A meal or tag: its name and the URL of its page.
    public func label(_ label: Label, kind: ArticleGroup.Kind) -> MustacheValue {
        (kind == .meal ? meals : tags).value(for: label.name) { name in
            .fields(["name": .string(name), "url": .string(url("\(kind.rawValue)/\(label.slug.text)/"))])
        }
    }
}

/// An assignment as templates see it (`assignment.row`, `assignment.digest`).
public struct AssignmentView: MustacheObject {
    public var assignment: Assignment
    public var variant: String
    public var context: ViewContext
    /// The build's day: due dates read "tomorrow" from it.
    public var today: CalendarDate
    /// The archive page of the day it was given, for the grade the page is about.
    public var dayURL: String
    /// What `teacher` shows, made once per teacher for all their assignments.
    public var teacher: MustacheValue
    /// Made once for the view: a row asks for it twice (the row and its icon).
    public let mustacheIdentity: MustacheIdentity?

    public init(assignment: Assignment, variant: String, context: ViewContext, today: CalendarDate, dayURL: String, teacher: MustacheValue) {
        self.assignment = assignment
        self.variant = variant
        self.context = context
        self.today = today
        self.dayURL = dayURL
        self.teacher = teacher
        // The build's day is the same for every view of a render run.
        mustacheIdentity = MustacheIdentity(variant + "\u{0}" + dayURL + "\u{0}" + assignment.sourcePath)
    }

    public static func teacher(_ teacher: Teacher) -> MustacheValue {
        .fields(["name": .string(teacher.name), "blog": teacher.blog.map { .string($0.text) } ?? .null, "id": .string(teacher.id), "extra": teacher.extra.mustacheValue])
    }

    public func mustacheMember(_ key: String) -> MustacheValue? {
        switch key {
        case "title": .string(assignment.title)
        case "subject": .string(assignment.subject)
        case "due": assignment.due.map { .string($0.description) } ?? .null
        case "displayDue": assignment.due.map { .string(context.dueText($0, from: today)) } ?? .null
        case "repeats": assignment.repeats.map { .string(context.repeatText($0)) } ?? .null
        case "teacher": teacher
        case "details": assignment.detailsHTML.isEmpty ? .null : assignment.detailsHTML.mustacheValue
        case "link": assignment.link.map { .string($0.text) } ?? .null
        case "icon": .string(assignment.icon.rawValue)
        case "iconView": .string("icon." + assignment.icon.rawValue)
        case "iconLabel": .string(context.strings.text("icon." + assignment.icon.rawValue))
        case "view": .string(variant)
        case "id": .string(assignment.id)
        case "assigned": .string(assignment.assigned.description)
        case "displayAssigned": .string(context.formats.weekdayDate(assignment.assigned))
        case "dayURL": .string(dayURL)
        case "grades": .array(assignment.grades.map { .string($0.text) })
        case "extra": assignment.extra.mustacheValue
        default: nil
        }
    }
}

public struct PageView: MustacheObject {
    public var page: Page
    public var context: ViewContext

    public var url: String { context.url("\(page.slug.text)/") }

    public func mustacheMember(_ key: String) -> MustacheValue? {
        switch key {
        case "view": "page"
        case "title": .string(page.title)
        case "url": .string(url)
        case "summary": .string(page.summary)
        case "body": .string(page.html)
        case "extra": page.extra.mustacheValue
        default: nil
        }
    }
}

/// Each photo's colour by its path in the site: the photos stage's, or for a build that
/// renders only some pages, looked up as they are asked for.
public final class PhotoColours: Sendable {
    private let known: [String: String]
    private let lookUp: (@Sendable (String) -> String?)?
    private let found = Locked<[String: String?]>([:])

    public init(_ known: [String: String] = [:], lookUp: (@Sendable (String) -> String?)? = nil) {
        self.known = known
        self.lookUp = lookUp
    }

    public subscript(path: String) -> String? {
        if let colour = known[path] { return colour }
        guard let lookUp else { return nil }
        if let colour = found.withLock({ $0[path] }) { return colour }
        let colour = lookUp(path)
        found.withLock { $0[path] = colour }
        return colour
    }
}
