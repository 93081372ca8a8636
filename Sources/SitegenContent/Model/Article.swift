import Foundation
import SitegenMarkdown
import SitegenSupport
import SitegenYAML

public struct Price: Sendable, Hashable {
    public var amount: Decimal
    public var currency: CurrencyCode

    public init(amount: Decimal, currency: CurrencyCode) {
        self.amount = amount
        self.currency = currency
    }
}

public struct Restaurant: Sendable, Hashable {
    public let name: String?
    public let address: String?
    public var latitude: Double?
    public var longitude: Double?
    /// The slug of the restaurant's page, `/restaurants/<slug>/`, made from its name (its
    /// address when it has none) alone, so that an article's link to the page depends on
    /// nothing else, and "Kam Wah Café" and "kam wah cafe" are one restaurant; nil when it
    /// has neither.
    public let slug: String?

    public var hasCoordinates: Bool { latitude != nil && longitude != nil }

    public init(name: String? = nil, address: String? = nil, latitude: Double? = nil, longitude: Double? = nil, memo: ReadingMemo? = nil) {
        self.init(name: name, address: address, latitude: latitude, longitude: longitude,
                  slug: (name ?? address).map { Restaurant.slug(of: $0, memo: memo) })
    }

    public init(name: String?, address: String?, latitude: Double?, longitude: Double?, slug: String?) {
        self.name = name
        self.address = address
        self.latitude = latitude
        self.longitude = longitude
        self.slug = slug
    }

    /// The slug of a restaurant called `name`; a name with no letter or digit ("!!!") is
    /// told by a hash of it instead.
    public static func slug(of name: String, memo: ReadingMemo? = nil) -> String {
        if let slug = Slug(making: name, memo: memo) { return slug.text }
        var print = Fingerprint()
        print.add(Array(name.lowercasedBytewise.utf8))
        return "restaurant-" + String(String(print.value, radix: 16).suffix(8))
    }
}

public struct SubContent: Sendable {
    public var image: ResolvedImage
    public var html: StoredText

    public init(image: ResolvedImage, html: StoredText) {
        self.image = image
        self.html = html
    }
}

/// A food article: `Content/articles/**/*.md`.
public typealias Article = Boxed<ArticleFields>

extension Boxed where Fields == ArticleFields {
    public init(file: ContentFile, context: ModelContext, log: DiagnosticLog) throws(InvalidContent) {
        self.init(try ArticleFields(file: file, context: context, log: log))
    }
}

/// A line and column of a model's own source file, whose path the model has: kept without
/// a second copy of the path, which made every copy of the model retain one more string.
public struct SlugPlace: Sendable {
    public var line: Int32
    public var column: Int32

    public init(line: Int32, column: Int32) {
        self.line = line
        self.column = column
    }

    public init(_ location: SourceLocation) {
        self.init(line: Int32(clamping: location.line), column: Int32(clamping: location.column))
    }

    public func location(in path: String) -> SourceLocation {
        SourceLocation(path: path, line: Int(line), column: Int(column))
    }
}

/// What an article is made of, checked when its file is read.
public struct ArticleFields: Sendable {
    public var sourcePath: String
    public let slug: Slug
    /// Where the slug is written (the file's start when its name makes it): two articles
    /// of one slug are reported there.
    public var slugPlace: SlugPlace
    public var slugLocation: SourceLocation { slugPlace.location(in: sourcePath) }
    /// Where the article's page is, relative to the site: `articles/<slug>/`. Kept, not
    /// made when asked: the index, the restaurants page, the map, the sitemap and the
    /// model store each asked for it of every article, a string made each time.
    public let pagePath: String

    public static func pagePath(of slug: Slug) -> String { "articles/\(slug.text)/" }

    /// The main text's HTML, then each sub section's: what the article's page shows of it
    /// as it is (`PageHTML`).
    public var htmlPieces: [StoredText] { [mainHTML] + subContents.map(\.html) }
    public var title: String
    public var date: DateTimeValue
    /// `date` as seconds since 1970 in UTC, for sorting.
    public var instant: Int
    public var summary: String
    public var cover: ResolvedImage?
    public var meal: Label?
    public var price: Price?
    public var author: Site.Author?
    public var restaurant: Restaurant?
    /// Where `restaurant:` is written, for `sitegen check`'s advice.
    public var restaurantLocation: SourceLocation?
    public var tags: [Label]
    public var draft: Bool
    /// The blocks before the first standalone image.
    public var mainHTML: StoredText
    public var subContents: [SubContent]
    /// Links of the body, for `sitegen check`.
    public var links: [ContentLink]

    public init(file: ContentFile, context: ModelContext, log: DiagnosticLog) throws(InvalidContent) {
        let errorsBefore = log.entries.count
        let fields = FieldReader(file.frontMatter, keys: ContentKeys.article, log: log, emptyLocation: file.start, memo: context.memo)
        let title = fields.requiredText("title")
        let date = fields.required("date", DateTimeValue.self)
        let summary = fields.optionalText("summary")
        let slug = file.slug(from: fields, example: "lovely-breakfast")
        draft = fields.optional("draft", Bool.self) ?? false
        meal = fields.optional("meal", Label.self)
        tags = fields.tags("tags")

        if let coverFields = fields.mapping("cover", expectation: "a mapping like {src: toast.jpg, alt: Kaya toast}") {
            cover = ArticleFields.readCover(coverFields, file: file, context: context)
            coverFields.reportUnknownKeys(what: "article front matter")
        }

        price = ArticleFields.readPrice(fields, site: context.site)

        if let authorFields = fields.mapping("author", expectation: "a mapping like {name: The Dreamer, username: dreamer}") {
            let name = authorFields.optionalText("name")
            let username = authorFields.optional("username", Username.self)?.text
            if let name {
                author = Site.Author(name: name, username: username)
            } else if let username {
                author = Site.Author(name: username, username: username)
            }
            authorFields.reportUnknownKeys(what: "article front matter")
        } else {
            author = context.site.author
        }

        if let restaurantFields = fields.mapping("restaurant", expectation: "a mapping like {name: Toast Box, address: ..., lat: 22.3, lon: 114.2}") {
            restaurant = ArticleFields.readRestaurant(restaurantFields)
            restaurantLocation = fields.keyLocation("restaurant")
            restaurantFields.reportUnknownKeys(what: "article front matter")
        }
        fields.reportUnknownKeys(what: "article front matter")

        let body = ContentBody.render(file, context: context, log: log)
        links = body.links
        mainHTML = StoredText(utf8: body.sections.first?.html[...] ?? [])
        subContents = body.sections.dropFirst().compactMap { section in
            guard let image = section.image else { return nil }
            return SubContent(image: image, html: StoredText(utf8: section.html[...]))
        }
        self.summary = summary ?? Summary.make(from: body.firstParagraph ?? "")

        guard let title, let date, let slug, !log.entries[errorsBefore...].contains(where: { $0.severity == .error }) else {
            throw InvalidContent()
        }
        self.sourcePath = file.path
        self.title = title
        self.date = date
        self.instant = date.instant(in: context.site.timeZone)
        self.slug = slug.slug
        slugPlace = SlugPlace(slug.location)
        pagePath = ArticleFields.pagePath(of: slug.slug)
    }

    private static func readCover(_ fields: FieldReader, file: ContentFile, context: ModelContext) -> ResolvedImage? {
        let source = fields.required("src", ImageSource.self)
        let alt = fields.required("alt", String.self)
        if let alt, Summary.isBlank(alt), let node = fields.node("alt") {
            fields.log.warning(at: node.location, "'\(fields.name("alt"))' is blank, so screen readers pass over the cover photo: say what it shows")
        }
        let width = positive(fields, "width")
        let height = positive(fields, "height")
        switch source {
        case nil:
            return nil
        case .remote(let url):
            return alt.map { ResolvedImage(location: .remote(url.text), alt: $0, width: width, height: height) }
        case .local(let path):
            let location = fields.node("src")?.location ?? fields.mappingLocation
            let found = ContentBody.findLocal(path, file: file, at: location, context: context, log: fields.log)
            guard let found, let alt else { return nil }
            return ResolvedImage(location: .site(found.path), alt: alt, width: width ?? found.width, height: height ?? found.height)
        }
    }

    private static func positive(_ fields: FieldReader, _ key: String) -> Int? {
        guard let value = fields.optional(key, Int.self) else { return nil }
        guard value > 0 else {
            fields.log.error(at: fields.node(key)!.location, "'\(fields.name(key))' must be a whole number above 0, found '\(value)'")
            return nil
        }
        return value
    }

    private static func readPrice(_ fields: FieldReader, site: Site) -> Price? {
        guard let node = fields.node("price") else { return nil }
        var amount: Number?
        var currency = site.currency
        var amountLocation = node.location
        if node.mapping != nil {
            let priceFields = FieldReader(node, keys: fields.nested("price"), log: fields.log, emptyLocation: node.location, prefix: "price.")
            amount = priceFields.required("amount", Number.self)
            amountLocation = priceFields.node("amount")?.location ?? node.location
            currency = priceFields.optional("currency", CurrencyCode.self) ?? currency
            priceFields.reportUnknownKeys(what: "article front matter")
        } else {
            do throws(ValueProblem) {
                amount = try Number(node: node)
            } catch .invalid(let message) {
                fields.log.error(at: node.location, "'price' \(message)")
            } catch {
                fields.log.error(at: node.location, "'price' must be a number like 34 or a mapping like {amount: 34, currency: HKD}, found \(node.shortDescription)")
            }
        }
        guard let amount else { return nil }
        guard amount.value >= 0 else {
            fields.log.error(at: amountLocation, "'price' must be a number of 0 or more, found '\(amount.text)'")
            return nil
        }
        return Price(amount: amount.value, currency: currency)
    }

    private static func readRestaurant(_ fields: FieldReader) -> Restaurant {
        var restaurant = Restaurant(name: fields.optional("name", String.self), address: fields.optional("address", String.self), memo: fields.memo)
        let latitude = fields.optional("lat", Number.self)
        let longitude = fields.optional("lon", Number.self)
        // Each converted once: a conversion goes through an NSDecimalNumber.
        let degrees = (latitude: latitude?.doubleValue, longitude: longitude?.doubleValue)
        if let latitude, let value = degrees.latitude, !(-90...90).contains(value) {
            fields.log.error(at: fields.node("lat")!.location, "'restaurant.lat' must be a latitude from -90 to 90, found '\(latitude.text)'")
        }
        if let longitude, let value = degrees.longitude, !(-180...180).contains(value) {
            fields.log.error(at: fields.node("lon")!.location, "'restaurant.lon' must be a longitude from -180 to 180, found '\(longitude.text)'")
        }
        switch (fields.node("lat") != nil, fields.node("lon") != nil) {
        case (true, false):
            fields.log.error(at: fields.keyLocation("lat"), "'restaurant.lat' is given without 'restaurant.lon': give both or neither")
        case (false, true):
            fields.log.error(at: fields.keyLocation("lon"), "'restaurant.lon' is given without 'restaurant.lat': give both or neither")
        default:
            restaurant.latitude = degrees.latitude
            restaurant.longitude = degrees.longitude
        }
        return restaurant
    }

    /// Every field, as a store of models gives them back.
    public init(sourcePath: String, slug: Slug, slugPlace: SlugPlace, title: String, date: DateTimeValue, instant: Int, summary: String, cover: ResolvedImage?, meal: Label?, price: Price?, author: Site.Author?, restaurant: Restaurant?, restaurantLocation: SourceLocation?, tags: [Label], draft: Bool, mainHTML: StoredText, subContents: [SubContent], links: [ContentLink]) {
        self.sourcePath = sourcePath
        self.slug = slug
        self.slugPlace = slugPlace
        self.title = title
        self.date = date
        self.instant = instant
        self.summary = summary
        self.cover = cover
        self.meal = meal
        self.price = price
        self.author = author
        self.restaurant = restaurant
        self.restaurantLocation = restaurantLocation
        self.tags = tags
        self.draft = draft
        self.mainHTML = mainHTML
        self.subContents = subContents
        self.links = links
        pagePath = ArticleFields.pagePath(of: slug)
    }
}
