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

/// How the author rated the meal: 0 to 5 stars, in halves (`rating: 4.5`).
public struct Rating: FrontMatterValue, Sendable, Hashable {
    /// Half stars, from 0 to 10.
    public let halves: Int

    public static var expectation: String { "a number from 0 to 5 in halves, like 4.5" }

    public init?(halves: Int) {
        guard (0...10).contains(halves) else { return nil }
        self.halves = halves
    }

    public init(node: YAMLNode) throws(ValueProblem) {
        let number = try Number(node: node)
        var doubled = number.value * 2
        var whole = Decimal()
        NSDecimalRound(&whole, &doubled, 0, .plain)
        guard whole == doubled, let halves = Rating(halves: NSDecimalNumber(decimal: whole).intValue), number.value >= 0, number.value <= 5 else {
            throw .invalid("must be a number from 0 to 5 in halves, like 4.5, found '\(number.text)'")
        }
        self = halves
    }

    /// `4.5`, `4`, `0`: the number as written, without a needless `.0`.
    public var text: String { halves % 2 == 0 ? "\(halves / 2)" : "\(halves / 2).5" }
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
public struct LineAndColumn: Sendable {
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

/// The keys of an article's front matter, beside the reader that reads them.
extension ContentKeys {
    public static let article = KeyTable([
        ContentKey("title", "text", default: "required", "The article's title.", example: "title: Lovely Breakfast"),
        ContentKey("date", "a date (`2026-12-01`), or a date and time (`2026-12-01T08:00`, with an offset or in the site's time zone)", default: "required", "When it was published: articles are listed newest first.", example: "date: 2016-05-20"),
        ContentKey("updated", "a date, or a date and time", default: "none", "When the article last changed in a way worth telling: shown as \"Updated …\", and the date feeds and the sitemap give. Not before `date`.", example: "updated: 2026-12-01"),
        ContentKey("summary", "text", default: "the first paragraph, cut on a word near 200 characters", "What cards, feeds, search engines and link previews show.", example: "summary: Kaya toast and soft eggs in Jordan."),
        ContentKey("slug", "lowercase letters, digits and hyphens", default: "the file's name without `.md` and a leading date (`2016-05-20-`), or the folder's name for an `index.md`", "The article's address: `/articles/<slug>/`.", example: "slug: lovely-breakfast"),
        ContentKey("draft", "`true` or `false`", default: "`false`", "A draft is left out of the site unless the build is given `--drafts`.", example: "draft: true"),
        ContentKey("meal", "text", default: "none", "The meal, such as Breakfast: articles are gathered by meal at `/meals/<meal>/`.", example: "meal: Breakfast"),
        ContentKey("tags", "a list of text, or one text", default: "none", "Articles are gathered by tag at `/tags/<tag>/`. A tag listed twice is shown once, with a warning.", example: "tags: [toast, milk tea]"),
        ContentKey("cover", "a mapping", default: "none", "The cover photo, on the article's page and card.", example: "cover: {src: toast.jpg, alt: Kaya toast with butter}", keys: KeyTable([
            ContentKey("src", "a path of the site, or an http or https URL", default: "required", "The photo. A path is looked up beside the article, then from `Content/`.", example: "src: toast.jpg"),
            ContentKey("alt", "text", default: "required", "What the photo shows, for screen readers; a blank one is a warning.", example: "alt: Kaya toast with butter"),
            ContentKey("width", "a whole number above 0", default: "read from a local file", "The photo's width in pixels, so the page keeps its place before it loads.", example: "width: 1080"),
            ContentKey("height", "a whole number above 0", default: "read from a local file", "The photo's height in pixels.", example: "height: 810"),
        ])),
        ContentKey("price", "a number of 0 or more, or a mapping", default: "none", "What the meal cost, shown with its currency (`HK$ 34`).", example: "price: 34", keys: KeyTable([
            ContentKey("amount", "a number of 0 or more", default: "required", "The price.", example: "amount: 34"),
            ContentKey("currency", "an ISO 4217 currency code", default: "the site's `currency`", "Its currency.", example: "currency: HKD"),
        ])),
        ContentKey("author", "a mapping", default: "the site's `author`", "Who wrote it (\"by The Dreamer @dreamer\"); given a username alone, the name is the username.", example: "author: {name: The Dreamer, username: dreamer}", keys: KeyTable([
            ContentKey("name", "text", default: "the username", "The author's name.", example: "name: The Dreamer"),
            ContentKey("username", "one word, with or without its `@`", default: "none", "A handle shown after the name.", example: "username: dreamer"),
        ])),
        ContentKey("rating", "a number from 0 to 5 in halves", default: "none", "How good it was: stars on the article and its card, read aloud as \"4.5 out of 5\". With a `restaurant`, search engines see the article as a review of it.", example: "rating: 4.5"),
        ContentKey("restaurant", "a mapping", default: "none", "Where the meal was: its page at `/restaurants/<slug>/`, and a pin on maps when it has coordinates.", example: "restaurant: {name: Toast Box, address: \"G/F, 233 Nathan Rd\"}", keys: Restaurant.keys),
        .extra,
    ])
}

/// What an article is made of, checked when its file is read.
public struct ArticleFields: Sendable {
    public var sourcePath: String
    public let slug: Slug
    /// Where the slug is written (the file's start when its name makes it): two articles
    /// of one slug are reported there.
    public var slugPlace: LineAndColumn
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
    public var updated: DateTimeValue?
    /// `updated` as seconds since 1970, or `instant` without one: what feeds show.
    public var updatedInstant: Int
    public var summary: String
    public var cover: ResolvedImage?
    public var meal: Label?
    public var price: Price?
    public var rating: Rating?
    public var author: Site.Author?
    public var restaurant: Restaurant?
    /// Where `restaurant:` is written, for `sitegen check`'s advice.
    public var restaurantLocation: SourceLocation?
    public var tags: [Label]
    /// Where each of `tags` and the meal are written, for two spellings of one address.
    public var tagPlaces: [LineAndColumn]
    public var mealPlace: LineAndColumn?
    public var draft: Bool
    /// The blocks before the first standalone image.
    public var mainHTML: StoredText
    public var subContents: [SubContent]
    /// Links of the body, for `sitegen check`.
    public var links: [ContentLink]
    /// The photos of the story and its sections, each once (the cover is `cover`).
    public var photos: [ResolvedImage] = []

    /// The paths of every photo the article shows, its cover's among them.
    public var photoPaths: [String] {
        ([cover].compactMap { $0 } + photos).compactMap { image in
            guard image.photo != nil, case .site(let path) = image.location else { return nil }
            return path
        }
    }
    public var extra: Extra

    public init(file: ContentFile, context: ModelContext, log: DiagnosticLog) throws(InvalidContent) {
        let errorsBefore = log.entries.count
        let fields = FieldReader(file.frontMatter, keys: ContentKeys.article, log: log, emptyLocation: file.start, memo: context.memo)
        let title = fields.requiredText("title")
        let date = fields.required("date", DateTimeValue.self)
        let updated = fields.optional("updated", DateTimeValue.self)
        // A day alone is any time of it: updated the day a post went up at noon is fine.
        if let updated, let date, updated.date < date.date
            || (updated.time != nil && date.time != nil && updated.instant(in: context.site.timeZone) < date.instant(in: context.site.timeZone)) {
            log.error(at: fields.node("updated")!.location, "'updated' must not be before 'date' (\(date)), found '\(updated)'")
        }
        let summary = fields.optionalText("summary", limit: .summary)
        let slug = file.slug(from: fields, example: "lovely-breakfast")
        draft = fields.optional("draft", Bool.self) ?? false
        meal = fields.optional("meal", Label.self)
        mealPlace = meal == nil ? nil : fields.node("meal").map { LineAndColumn($0.location) }
        let tagged = fields.taggedPlaces("tags")
        tags = tagged.map(\.label)
        tagPlaces = tagged.map { LineAndColumn($0.location) }

        if let coverFields = fields.mapping("cover", expectation: "a mapping like {src: toast.jpg, alt: Kaya toast}") {
            cover = ArticleFields.readCover(coverFields, file: file, context: context)
            coverFields.reportUnknownKeys(what: "article front matter")
        }

        price = ArticleFields.readPrice(fields, site: context.site)
        rating = fields.optional("rating", Rating.self)

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
            restaurant = Restaurant(fields: restaurantFields)
            restaurantLocation = fields.keyLocation("restaurant")
            restaurantFields.reportUnknownKeys(what: "article front matter")
        }
        extra = fields.extra()
        fields.reportUnknownKeys(what: "article front matter")

        let body = ContentBody.render(file, context: context, log: log)
        links = body.links
        photos = body.photos
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
        self.updated = updated
        updatedInstant = max(updated?.instant(in: context.site.timeZone) ?? instant, instant)
        self.slug = slug.slug
        slugPlace = LineAndColumn(slug.location)
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
            // A photo's own size wins over one written: its published sizes are made from it.
            return ResolvedImage(location: .site(found.path), alt: alt, width: found.photo?.width ?? width ?? found.width, height: found.photo?.height ?? height ?? found.height, photo: found.photo, usedAt: location)
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

    /// Every field, as a store of models gives them back.
    public init(sourcePath: String, slug: Slug, slugPlace: LineAndColumn, title: String, date: DateTimeValue, instant: Int, summary: String, cover: ResolvedImage?, meal: Label?, price: Price?, author: Site.Author?, restaurant: Restaurant?, restaurantLocation: SourceLocation?, tags: [Label], draft: Bool, mainHTML: StoredText, subContents: [SubContent], links: [ContentLink], rating: Rating? = nil, extra: Extra = .none, updated: (value: DateTimeValue, instant: Int)? = nil,
                tagPlaces: [LineAndColumn] = [], mealPlace: LineAndColumn? = nil, photos: [ResolvedImage] = []) {
        self.sourcePath = sourcePath
        self.slug = slug
        self.slugPlace = slugPlace
        self.title = title
        self.date = date
        self.instant = instant
        self.updated = updated?.value
        updatedInstant = updated?.instant ?? instant
        self.summary = summary
        self.cover = cover
        self.meal = meal
        self.price = price
        self.rating = rating
        self.author = author
        self.restaurant = restaurant
        self.restaurantLocation = restaurantLocation
        self.tags = tags
        self.tagPlaces = tagPlaces.count == tags.count ? tagPlaces : Array(repeating: slugPlace, count: tags.count)
        self.mealPlace = mealPlace
        self.draft = draft
        self.mainHTML = mainHTML
        self.subContents = subContents
        self.links = links
        self.extra = extra
        self.photos = photos
        pagePath = ArticleFields.pagePath(of: slug)
    }
}

/// An article in bytes: its fields in the order they are declared, each read back in the
/// same order by `ArticleFields(from:html:)`.
extension BinaryWriter {
    /// `htmlElsewhere`: leaves out the HTML, for a reader that finds it somewhere else (the
    /// build cache, in the article's page).
    public mutating func article(_ value: Article, htmlElsewhere: Bool = false) {
        string(value.sourcePath)
        string(value.slug.text)
        place(value.slugPlace)
        string(value.title)
        dateTime(value.date)
        integer(value.instant)
        optional(value.updated) { $0.dateTime($1) }
        integer(value.updatedInstant)
        string(value.summary)
        optional(value.cover) { $0.image($1) }
        optional(value.meal) { $0.label($1) }
        optional(value.price) { writer, price in
            writer.decimal(price.amount)
            writer.string(price.currency.code)
        }
        optional(value.rating) { $0.integer($1.halves) }
        optional(value.author) { writer, author in
            writer.string(author.name)
            writer.optional(author.username) { $0.string($1) }
        }
        optional(value.restaurant) { writer, restaurant in
            writer.optional(restaurant.name) { $0.string($1) }
            writer.optional(restaurant.address) { $0.string($1) }
            writer.optional(restaurant.latitude) { $0.unsigned($1.bitPattern) }
            writer.optional(restaurant.longitude) { $0.unsigned($1.bitPattern) }
            writer.optional(restaurant.id) { $0.string($1) }
            writer.optional(restaurant.branch) { $0.string($1) }
            writer.optional(restaurant.slug) { $0.string($1) }
        }
        optional(value.restaurantLocation) { $0.location($1) }
        array(value.tags) { $0.label($1) }
        array(value.tagPlaces) { $0.place($1) }
        optional(value.mealPlace) { $0.place($1) }
        bool(value.draft)
        bool(htmlElsewhere)
        if htmlElsewhere {
            // Each image read where the array holds it: a sub section copied retained its
            // HTML too, which is not written here.
            let subContents = value.subContents
            unsigned(UInt64(subContents.count))
            subContents.withUnsafeBufferPointer { subContents in
                for index in subContents.indices { image(subContents[index].image) }
            }
        } else {
            text(value.mainHTML)
            array(value.subContents) { writer, sub in
                writer.image(sub.image)
                writer.text(sub.html)
            }
        }
        array(value.links) { $0.link($1) }
        extra(value.extra)
        array(value.photos) { $0.image($1) }
    }
}

extension ArticleFields {
    /// `html`: the HTML of the article's page (a path), in pieces (a count), for an article
    /// written with its HTML elsewhere; nil when it is not to be had.
    public init(from reader: inout BinaryReader, html: (_ page: String, _ count: Int, _ source: String) -> LazyText?) throws(BinaryReader.Corrupt) {
        let sourcePath = try reader.string()
        let slug = try reader.slug()
        let slugPlace = try reader.place()
        let title = try reader.string()
        let date = try reader.dateTime()
        let instant = try reader.integer()
        let updated = try reader.optional { reader throws(BinaryReader.Corrupt) in try reader.dateTime() }
        let updatedInstant = try reader.integer()
        let summary = try reader.string()
        let cover = try reader.optional { reader throws(BinaryReader.Corrupt) in try reader.image() }
        let meal = try reader.optional { reader throws(BinaryReader.Corrupt) in try reader.label() }
        let price = try reader.optional { reader throws(BinaryReader.Corrupt) -> Price in
            Price(amount: try reader.decimal(), currency: CurrencyCode(try reader.string()))
        }
        let rating = try reader.optional { reader throws(BinaryReader.Corrupt) -> Rating in
            guard let rating = Rating(halves: try reader.integer()) else { throw BinaryReader.Corrupt() }
            return rating
        }
        let author = try reader.optional { reader throws(BinaryReader.Corrupt) in
            Site.Author(name: try reader.string(), username: try reader.optional { reader throws(BinaryReader.Corrupt) in try reader.string() })
        }
        let restaurant = try reader.optional { reader throws(BinaryReader.Corrupt) in
            Restaurant(name: try reader.optional { reader throws(BinaryReader.Corrupt) in try reader.string() },
                       address: try reader.optional { reader throws(BinaryReader.Corrupt) in try reader.string() },
                       latitude: try reader.optional { reader throws(BinaryReader.Corrupt) in Double(bitPattern: try reader.unsigned()) },
                       longitude: try reader.optional { reader throws(BinaryReader.Corrupt) in Double(bitPattern: try reader.unsigned()) },
                       id: try reader.optional { reader throws(BinaryReader.Corrupt) in try reader.string() },
                       branch: try reader.optional { reader throws(BinaryReader.Corrupt) in try reader.string() },
                       slug: try reader.optional { reader throws(BinaryReader.Corrupt) in try reader.string() })
        }
        let restaurantLocation = try reader.optional { reader throws(BinaryReader.Corrupt) in try reader.location() }
        let tags = try reader.array { reader throws(BinaryReader.Corrupt) in try reader.label() }
        let tagPlaces = try reader.array { reader throws(BinaryReader.Corrupt) in try reader.place() }
        let mealPlace = try reader.optional { reader throws(BinaryReader.Corrupt) in try reader.place() }
        let draft = try reader.bool()
        let mainHTML: StoredText
        let subContents: [SubContent]
        if try reader.bool() {
            let images = try reader.array { reader throws(BinaryReader.Corrupt) in try reader.image() }
            let pagePath = ArticleFields.pagePath(of: slug)
            guard let html = html(pagePath + "index.html", images.count + 1, sourcePath) else {
                throw BinaryReader.Corrupt()
            }
            mainHTML = StoredText(html, piece: 0)
            subContents = images.enumerated().map { SubContent(image: $1, html: StoredText(html, piece: $0 + 1)) }
        } else {
            mainHTML = StoredText(utf8: try reader.slice())
            subContents = try reader.array { reader throws(BinaryReader.Corrupt) in SubContent(image: try reader.image(), html: StoredText(utf8: try reader.slice())) }
        }
        let links = try reader.array { reader throws(BinaryReader.Corrupt) in try reader.link() }
        let extra = try reader.extra()
        let photos = try reader.array { reader throws(BinaryReader.Corrupt) in try reader.image() }
        self.init(sourcePath: sourcePath, slug: slug, slugPlace: slugPlace, title: title, date: date, instant: instant, summary: summary, cover: cover, meal: meal, price: price, author: author, restaurant: restaurant, restaurantLocation: restaurantLocation, tags: tags, draft: draft, mainHTML: mainHTML, subContents: subContents, links: links, rating: rating, extra: extra,
                  updated: updated.map { ($0, updatedInstant) }, tagPlaces: tagPlaces, mealPlace: mealPlace, photos: photos)
    }
}
