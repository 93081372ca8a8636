import Foundation
import SitegenMarkdown
import SitegenMustache
import SitegenSupport
import SitegenYAML

/// A Markdown file of Content/ cut into front matter and body, its YAML read.
struct ContentFile: Sendable {
    /// Relative to the site: `Content/articles/lovely-breakfast/index.md`.
    var path: String
    /// Relative to Content/: `articles/lovely-breakfast/index.md`.
    var contentPath: String
    var frontMatter: YAMLNode?
    var body: [UInt8]
    var bodyFirstLine: Int

    var fileStem: String {
        // Cut on the path's bytes: splitting it into characters, and comparing substrings
        // character by character, cost more than the rest of reading the front matter.
        var path = contentPath
        return path.withUTF8 { bytes in
            let slash = UInt8(ascii: "/")
            let nameStart = (bytes.lastIndex(of: slash) ?? -1) + 1
            var stemEnd = bytes.count
            if stemEnd - nameStart >= 3, bytes[(stemEnd - 3)...].elementsEqual(".md".utf8) { stemEnd -= 3 }
            // A folder with an index.md is the article: its name makes the URL.
            if nameStart > 0, bytes[nameStart..<stemEnd].elementsEqual("index".utf8) {
                let folderEnd = nameStart - 1
                let folderStart = (bytes[..<folderEnd].lastIndex(of: slash) ?? -1) + 1
                if folderStart < folderEnd { return String(decoding: UnsafeBufferPointer(rebasing: bytes[folderStart..<folderEnd]), as: UTF8.self) }
            }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[nameStart..<stemEnd]), as: UTF8.self)
        }
    }

    /// The slug a file gets when its front matter names none.
    var defaultSlug: Slug? {
        var stem = Substring(fileStem)
        // A date and a hyphen before the name are dropped; the byte checked first spares
        // names without one the characters' work.
        let bytes = stem.utf8
        if bytes.count > 11, let dash = bytes.index(bytes.startIndex, offsetBy: 10, limitedBy: bytes.endIndex), bytes[dash] == UInt8(ascii: "-") {
            // Digits, hyphens and the ASCII byte after them are characters of their own:
            // cut on the bytes (counting characters cost more than the rest of the slug).
            let name = bytes.index(after: dash)
            if bytes[name] < 0x80 {
                if CalendarDate(parsing: stem[..<dash]) != nil { stem = stem[name...] }
            } else if CalendarDate(parsing: stem.prefix(10)) != nil, stem.dropFirst(10).first == "-" {
                stem = stem.dropFirst(11)
            }
        }
        return Slug(making: String(stem))
    }

    var start: SourceLocation { SourceLocation(path: path, line: 1, column: 1) }

    /// The `slug` of the front matter, or the one the file name makes, and where it is
    /// written (the file's start when its name makes it).
    func slug(from fields: FieldReader, example: String) -> (slug: Slug, location: SourceLocation)? {
        if let node = fields.node("slug") { return fields.read(node, key: "slug").map { ($0, node.location) } }
        guard let slug = defaultSlug else {
            fields.log.error(at: start, "cannot make a URL from the file name '\(fileStem)': add a 'slug' like \(example)")
            return nil
        }
        return (slug, start)
    }
}

/// A link an author wrote in Markdown: as written, as published, and where.
struct ContentLink: Sendable, Hashable {
    var written: String
    var resolved: String
    var location: SourceLocation
}

/// What every model needs from its surroundings while it is built.
struct ModelContext: Sendable {
    var site: Site
    var teachers: [String: Teacher]
    var images: ImageLookup
}

struct Price: Sendable, Hashable {
    var amount: Decimal
    var currency: CurrencyCode
}

struct Restaurant: Sendable, Hashable {
    var name: String?
    var address: String?
    var latitude: Double?
    var longitude: Double?

    var hasCoordinates: Bool { latitude != nil && longitude != nil }
}

struct SubContent: Sendable {
    var image: ResolvedImage
    var html: StoredText
}

/// Text rendered from Markdown: an article's HTML, an assignment's details. It stays the
/// UTF-8 bytes it was made as (cmark's output, the build cache's bytes) until something
/// needs a String, and templates take the bytes as they are: a rebuild after one edit
/// decodes all of a large site's articles and assignments (their places in lists depend on
/// them) but renders a handful, and making Strings of 10,000 bodies was a tenth of that
/// rebuild; a full build checked every body's bytes once more for each String. Both
/// sources are valid UTF-8: cmark writes what it read, checked when the file was read, and
/// the cache's bytes are checksummed and were written from such text.
struct StoredText: Sendable {
    private enum Storage: Sendable {
        case text(String)
        case utf8(ArraySlice<UInt8>)
        /// A piece of `DeferredHTML`, read when first needed.
        case deferred(DeferredHTML, Int)
    }

    private let storage: Storage

    init(_ text: String) {
        storage = .text(text)
    }

    /// `bytes` must be valid UTF-8.
    init(utf8 bytes: ArraySlice<UInt8>) {
        storage = .utf8(bytes)
    }

    /// The `piece`th piece of `html`.
    init(_ html: DeferredHTML, piece: Int) {
        storage = .deferred(html, piece)
    }

    var text: String {
        switch storage {
        case .text(let text): text
        case .utf8(let bytes): String(decoding: bytes, as: UTF8.self)
        case .deferred(let html, let piece): html.pieces[piece].text
        }
    }

    /// What a template prints, without making a String of bytes.
    var mustacheValue: MustacheValue {
        switch storage {
        case .text(let text): .string(text)
        case .utf8(let bytes): .utf8(bytes)
        case .deferred(let html, let piece): html.pieces[piece].mustacheValue
        }
    }

    var isEmpty: Bool { utf8Count == 0 }

    /// Whether the text was read from elsewhere when first needed (`DeferredHTML`).
    var isDeferred: Bool {
        if case .deferred = storage { return true }
        return false
    }

    /// How many bytes the text's UTF-8 has.
    var utf8Count: Int {
        switch storage {
        case .text(let text): text.utf8.count
        case .utf8(let bytes): bytes.count
        case .deferred(let html, let piece): html.counts[piece]
        }
    }

    /// Calls `body` with the UTF-8 bytes, without making a String of them.
    func withUTF8<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        switch storage {
        case .text(var text): text.withUTF8(body)
        case .utf8(let bytes): bytes.withUnsafeBufferPointer(body)
        case .deferred(let html, let piece): html.pieces[piece].withUTF8(body)
        }
    }
}

/// HTML that a build reads only if it needs it: the pieces of an article's HTML that the
/// model store left out, in the page the last build made of the article (`PageTexts`).
/// A rebuild decodes every cached model (the lists need them all) but renders few
/// articles again, and reading 10,000 pages for it was a tenth of a rebuild.
final class DeferredHTML: Sendable {
    /// The UTF-8 length of each piece, known before they are read.
    let counts: [Int]
    private let load: @Sendable () -> [StoredText]
    private let loaded = Once<[StoredText]>()

    /// `load` gives as many pieces as `counts` has, of those lengths.
    init(counts: [Int], load: @escaping @Sendable () -> [StoredText]) {
        self.counts = counts
        self.load = load
    }

    /// Read once, by the first thread that needs them.
    var pieces: [StoredText] {
        loaded.value(load)
    }
}

/// A model whose fields live in one immutable box, so that each list showing it holds a
/// reference: an article is copied into every list that shows it (pages of the home list,
/// its tags, meal and restaurant, fingerprints, feeds), an assignment into lists by day,
/// grade, teacher and due date, and a copy of the fields was a retain and a release for
/// each of a dozen strings and arrays, a fifth of a rebuild. Read a field with a closure
/// (`{ $0.title }`), not a key path (`\.title`): a key path through the dynamic member is
/// projected at run time, about 1,200 instructions each.
@dynamicMemberLookup
struct Boxed<Fields: Sendable>: Sendable {
    private final class Box: Sendable {
        let fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }

    private let box: Box

    init(_ fields: Fields) {
        box = Box(fields)
    }

    subscript<Value>(dynamicMember field: KeyPath<Fields, Value>) -> Value {
        box.fields[keyPath: field]
    }

    /// Which model this is, shared by its copies: a key that hashes as one word.
    var identity: ObjectIdentifier { ObjectIdentifier(box) }
}

/// A food article: `Content/articles/**/*.md`.
typealias Article = Boxed<ArticleFields>

extension Boxed where Fields == ArticleFields {
    init(file: ContentFile, context: ModelContext, log: DiagnosticLog) throws(InvalidContent) {
        self.init(try ArticleFields(file: file, context: context, log: log))
    }
}

/// A line and column of a model's own source file, whose path the model has: kept without
/// a second copy of the path, which made every copy of the model retain one more string.
struct SlugPlace: Sendable {
    var line: Int32
    var column: Int32

    init(line: Int32, column: Int32) {
        self.line = line
        self.column = column
    }

    init(_ location: SourceLocation) {
        self.init(line: Int32(clamping: location.line), column: Int32(clamping: location.column))
    }

    func location(in path: String) -> SourceLocation {
        SourceLocation(path: path, line: Int(line), column: Int(column))
    }
}

/// What an article is made of, checked when its file is read.
struct ArticleFields: Sendable {
    var sourcePath: String
    let slug: Slug
    /// Where the slug is written (the file's start when its name makes it): two articles
    /// of one slug are reported there.
    var slugPlace: SlugPlace
    var slugLocation: SourceLocation { slugPlace.location(in: sourcePath) }
    /// Where the article's page is, relative to the site: `articles/<slug>/`. Kept, not
    /// made when asked: the index, the restaurants page, the map, the sitemap and the
    /// model store each asked for it of every article, a string made each time.
    let pagePath: String

    static func pagePath(of slug: Slug) -> String { "articles/\(slug.text)/" }

    /// The main text's HTML, then each sub section's: what the article's page shows of it
    /// as it is (`PageHTML`).
    var htmlPieces: [StoredText] { [mainHTML] + subContents.map(\.html) }
    var title: String
    var date: DateTimeValue
    /// `date` as seconds since 1970 in UTC, for sorting.
    var instant: Int
    var summary: String
    var cover: ResolvedImage?
    var meal: Label?
    var price: Price?
    var author: Site.Author?
    var restaurant: Restaurant?
    /// Where `restaurant:` is written, for `sitegen check`'s advice.
    var restaurantLocation: SourceLocation?
    var tags: [Label]
    var draft: Bool
    /// The blocks before the first standalone image.
    var mainHTML: StoredText
    var subContents: [SubContent]
    /// Links of the body, for `sitegen check`.
    var links: [ContentLink]

    init(file: ContentFile, context: ModelContext, log: DiagnosticLog) throws(InvalidContent) {
        let errorsBefore = log.entries.count
        let fields = FieldReader(file.frontMatter, keys: ContentKeys.article, log: log, emptyLocation: file.start)
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
        var restaurant = Restaurant(name: fields.optional("name", String.self), address: fields.optional("address", String.self))
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
}

/// An assignment: `Content/homework/**/*.md`.
typealias Assignment = Boxed<AssignmentFields>

extension Boxed where Fields == AssignmentFields {
    init(file: ContentFile, context: ModelContext, log: DiagnosticLog) throws(InvalidContent) {
        self.init(try AssignmentFields(file: file, context: context, log: log))
    }
}

/// What an assignment is made of, checked when its file is read.
struct AssignmentFields: Sendable {
    var sourcePath: String
    /// Stable across builds: made from the file's path, so feeds and calendars keep it.
    var id: String
    var title: String
    var teacher: Teacher?
    var subject: String
    var grades: [GradeID]
    var icon: AssignmentIcon
    var assigned: CalendarDate
    var due: DateTimeValue?
    var link: WebURL?
    var draft: Bool
    var detailsHTML: StoredText
    /// The details without markup, for calendars.
    var detailsText: StoredText
    var links: [ContentLink]

    init(file: ContentFile, context: ModelContext, log: DiagnosticLog) throws(InvalidContent) {
        let errorsBefore = log.entries.count
        let fields = FieldReader(file.frontMatter, keys: ContentKeys.assignment, log: log, emptyLocation: file.start)
        let title = fields.requiredText("title")
        let assigned = fields.required("assigned", CalendarDate.self)
        let due = fields.optional("due", DateTimeValue.self)
        icon = fields.optional("icon", AssignmentIcon.self) ?? .other
        link = fields.optional("link", WebURL.self)
        draft = fields.optional("draft", Bool.self) ?? false

        var teacher: Teacher?
        if let teacherID = fields.optional("teacher", String.self) {
            teacher = context.teachers[teacherID]
            if teacher == nil {
                var message = "'teacher' must be the id of a teacher in teachers.yaml, found '\(teacherID)'"
                if let suggestion = Suggestion.closest(to: teacherID, among: Array(context.teachers.keys)) {
                    message += "; did you mean '\(suggestion)'?"
                } else if context.teachers.isEmpty {
                    message += " (Content/teachers.yaml lists no teachers)"
                }
                log.error(at: fields.node("teacher")!.location, message)
            }
        }
        self.teacher = teacher

        let subject = fields.optional("subject", String.self) ?? teacher?.subject
        if subject == nil, teacher == nil, !fields.has("teacher") {
            log.error(at: fields.mappingLocation, "missing required key 'subject': an assignment without a 'teacher' needs a 'subject'")
        }

        if fields.has("grade"), fields.has("grades") {
            _ = fields.node("grade")
            log.error(at: fields.keyLocation("grades"), "give 'grade' or 'grades', not both")
        }
        let key = fields.has("grades") ? "grades" : "grade"
        var grades = fields.grades(key, of: context.site, example: "[7]", taughtBy: teacher) ?? teacher?.grades ?? []
        if !fields.has(key), grades.isEmpty, teacher == nil, !fields.has("teacher") {
            log.error(at: fields.mappingLocation, "missing required key 'grade': an assignment without a 'teacher' needs a 'grade' or 'grades'")
        }
        grades = grades.filter { context.site.homework.grades.contains($0) }

        if let due, let assigned, due.date < assigned {
            log.error(at: fields.node("due")!.location, "'due' must not be before 'assigned' (\(assigned)), found '\(due)'")
        } else if let due, let assigned, due.time != nil, due.date <= assigned {
            // Work comes out at the release time of the day it is assigned: due before then,
            // it is past due when students first see it.
            if due.instant(in: context.site.timeZone) < context.site.releaseInstant(of: assigned) {
                log.warning(at: fields.node("due")!.location, "'due' is '\(due)', before the work is published at \(context.site.homework.releaseTime) on \(assigned) ('homework.release_time'): it is past due when it first appears")
            }
        }
        fields.reportUnknownKeys(what: "assignment front matter")

        let details = ContentBody.render(file, context: context, log: log, includePlainText: true)
        detailsHTML = StoredText(utf8: details.html[...])
        detailsText = StoredText(details.plainText ?? "")
        links = details.links

        guard let title, let assigned, let subject, !log.entries[errorsBefore...].contains(where: { $0.severity == .error }) else {
            throw InvalidContent()
        }
        self.sourcePath = file.path
        let relative = file.contentPath.hasPrefix("homework/") ? file.contentPath.dropFirst("homework/".count) : Substring(file.contentPath)
        self.id = Slug(making: String(relative.dropLast(3)))?.text ?? "assignment"
        self.title = title
        self.assigned = assigned
        self.due = due
        self.subject = subject
        self.grades = grades
    }
}

/// A plain page: `Content/pages/**/*.md`, published at `/<slug>/`.
struct Page: Sendable {
    var sourcePath: String
    var slug: Slug
    /// Where the slug is written (the file's start when its name makes it).
    var slugPlace: SlugPlace
    var slugLocation: SourceLocation { slugPlace.location(in: sourcePath) }
    var title: String
    var summary: String
    var draft: Bool
    var html: String
    var links: [ContentLink]

    init(file: ContentFile, context: ModelContext, log: DiagnosticLog) throws(InvalidContent) {
        let errorsBefore = log.entries.count
        let fields = FieldReader(file.frontMatter, keys: ContentKeys.page, log: log, emptyLocation: file.start)
        let title = fields.requiredText("title")
        let summary = fields.optionalText("summary")
        let slug = file.slug(from: fields, example: "about")
        draft = fields.optional("draft", Bool.self) ?? false
        fields.reportUnknownKeys(what: "page front matter")
        let body = ContentBody.render(file, context: context, log: log)
        html = String(decoding: body.html, as: UTF8.self)
        links = body.links
        self.summary = summary ?? Summary.make(from: body.firstParagraph ?? "")
        guard let title, let slug, !log.entries[errorsBefore...].contains(where: { $0.severity == .error }) else {
            throw InvalidContent()
        }
        self.sourcePath = file.path
        self.title = title
        self.slug = slug.slug
        slugPlace = SlugPlace(slug.location)
    }
}

/// The Markdown body of a content file, its images found and published.
enum ContentBody {
    struct Rendered {
        var sections: [(image: ResolvedImage?, html: [UInt8])]
        var firstParagraph: String?
        var plainText: String?
        var links: [ContentLink]
        var html: [UInt8] {
            guard sections.count > 1 else { return sections.first?.html ?? [] }
            var joined: [UInt8] = []
            joined.reserveCapacity(sections.reduce(0) { $0 + $1.html.count })
            for section in sections { joined.append(contentsOf: section.html) }
            return joined
        }
    }

    static func render(_ file: ContentFile, context: ModelContext, log: DiagnosticLog, includePlainText: Bool = false) -> Rendered {
        let basePath = context.site.basePath
        var resolved: [ResolvedImage?] = []
        var links: [ContentLink] = []
        // A content file is read only once it is known to be UTF-8 (Parse.content).
        let markdown = Markdown.render(file.body, options: .init(allowsRawHTML: context.site.allowsRawHTML, checksUTF8: false), includePlainText: includePlainText, resolveLink: { link in
            let location = SourceLocation(path: file.path, line: file.bodyFirstLine + link.line - 1, column: link.column)
            if let scheme = LinkDestination.refusedScheme(of: link.destination) {
                log.error(at: location, "link '\(link.destination)' must be \(LinkDestination.expectation), found the scheme '\(scheme):'")
                return ""
            }
            // A root-relative link means the site's root, which is the base path when the
            // site is served under one.
            let resolved = link.destination.hasPrefix("/") && !link.destination.hasPrefix("//") ? basePath + link.destination.dropFirst() : link.destination
            links.append(ContentLink(written: link.destination, resolved: resolved, location: location))
            return resolved
        }, resolveImage: { image in
            let location = SourceLocation(path: file.path, line: file.bodyFirstLine + image.line - 1, column: image.column)
            if Summary.isBlank(image.alt) {
                log.warning(at: location, "image '\(image.source)' has no alt text, so screen readers pass over it: say what it shows between the brackets, like ![what it shows](\(image.source))")
            }
            guard let source = ImageSource(image.source) else {
                log.error(at: location, "image '\(image.source)' must be a path to an image of the site or an http/https URL")
                resolved.append(nil)
                return ResolvedMarkdownImage(url: "")
            }
            switch source {
            case .remote(let url):
                resolved.append(ResolvedImage(location: .remote(url.text), alt: image.alt))
                return ResolvedMarkdownImage(url: url.text)
            case .local(let path):
                guard let found = findLocal(path, file: file, at: location, context: context, log: log) else {
                    resolved.append(nil)
                    return ResolvedMarkdownImage(url: image.source)
                }
                resolved.append(ResolvedImage(location: .site(found.path), alt: image.alt, width: found.width, height: found.height))
                return ResolvedMarkdownImage(url: basePath + found.path.urlPathEncoded, width: found.width, height: found.height)
            }
        })
        if let raw = markdown.rawHTML {
            let location = SourceLocation(path: file.path, line: file.bodyFirstLine + raw.line - 1, column: raw.column)
            let more = raw.count > 1 ? " (and \(raw.count - 1) more in this file)" : ""
            log.warning(at: location, "raw HTML '\(raw.text)' is left out of the page\(more): add 'markdown: {unsafe: true}' to site.yaml to let it through")
        }
        let sections = markdown.sections.map { section -> (ResolvedImage?, [UInt8]) in
            (section.imageIndex.flatMap { resolved[$0] }, section.utf8)
        }
        return Rendered(sections: sections, firstParagraph: markdown.firstParagraph, plainText: markdown.plainText, links: links)
    }

    static func findLocal(_ path: String, file: ContentFile, at location: SourceLocation, context: ModelContext, log: DiagnosticLog) -> (path: String, width: Int?, height: Int?)? {
        switch context.images.find(path, from: file.contentPath) {
        case .found(let found, let size):
            if let problem = size?.problem {
                log.warning(at: location, "image '\(path)' must be \(ImageSize.expectation), found \(problem)")
            }
            guard case .size(let width, let height)? = size else { return (found, nil, nil) }
            return (found, width, height)
        case .outside:
            log.error(at: location, "image '\(path)' leads outside Content/")
        case .missing(let candidates):
            let tried = candidates.map { "Content/" + $0 }.joined(separator: " and ")
            log.error(at: location, "image '\(path)' not found: looked for \(tried)")
        }
        return nil
    }
}

enum Summary {
    /// The first paragraph, cut on a word near 200 characters.
    static func make(from text: String, limit: Int = 200) -> String {
        var collapsed = collapsingWhitespace(text)
        guard collapsed.utf8.count > limit else { return collapsed }
        if let cut = collapsed.withUTF8({ asciiCut($0, limit: limit) }) { return cut }
        // Counting the characters of a long paragraph only as far as the limit.
        guard let limitIndex = collapsed.index(collapsed.startIndex, offsetBy: limit, limitedBy: collapsed.endIndex),
              limitIndex != collapsed.endIndex
        else { return collapsed }
        let cut = collapsed[..<limitIndex]
        let end = cut.lastIndex(of: " ") ?? cut.endIndex
        return trimmingPunctuation(cut[..<end]) + "…"
    }

    /// `text` without the spaces and punctuation a cut leaves at its ends, scalar by scalar
    /// as Foundation's `trimmingCharacters(in:)` trims (which cost a tenth of an article's
    /// validation through its character set).
    private static func trimmingPunctuation(_ text: Substring) -> String {
        func trimmed(_ scalar: Unicode.Scalar) -> Bool {
            switch scalar {
            case " ", ",", ";", ":", ".", "-", "\u{2013}", "\u{2014}": true
            default: false
            }
        }
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !trimmed($0) }), let last = scalars.lastIndex(where: { !trimmed($0) }) else { return "" }
        return String(scalars[first...last])
    }

    /// The cut of ASCII text longer than `limit`, made on its bytes, which are its
    /// characters (whitespace is single spaces by now, so no CR LF pair): walking
    /// characters and trimming with a character set cost a tenth of an article's
    /// validation. Nil for any other text.
    private static func asciiCut(_ bytes: UnsafeBufferPointer<UInt8>, limit: Int) -> String? {
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        let trimmed = { (byte: UInt8) in
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: ":"), UInt8(ascii: "."), UInt8(ascii: "-"): true
            default: false
            }
        }
        var end = bytes[..<limit].lastIndex(of: UInt8(ascii: " ")) ?? limit
        var start = 0
        while start < end, trimmed(bytes[start]) { start += 1 }
        while end > start, trimmed(bytes[end - 1]) { end -= 1 }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self) + "…"
    }

    /// Whether `text` shows nothing: empty or whitespace only. Most texts asked about start
    /// with a visible ASCII letter, and only the others are looked at whole.
    static func isBlank(_ text: String) -> Bool {
        if let first = text.utf8.first, first > 0x20, first < 0x7F { return false }
        return collapsingWhitespace(text).isEmpty
    }

    /// Runs of whitespace become one space, none at either end — as splitting the text's
    /// characters on whitespace and joining them with spaces would, scalar by scalar
    /// (a paragraph has thousands of characters; splitting made an array of them).
    static func collapsingWhitespace(_ text: String) -> String {
        var text = text
        return text.withUTF8 { bytes in
            // Over the bytes, each scalar decoded only to be told apart from whitespace and
            // copied as it is, into a buffer as long as the text (collapsing only shortens
            // it): scalar by scalar, with Unicode's properties asked of each, a paragraph of
            // Chinese cost some 15,000 instructions.
            let collapsed = [UInt8](unsafeUninitializedCapacity: bytes.count) { result, count in
                // Whether the scalar before was whitespace that a mark can join: controls
                // (tab, line breaks) always end their character.
                var inJoinableWhitespace = false
                var pendingSpace = false
                var index = 0
                count = 0
                while index < bytes.count {
                    let lead = bytes[index]
                    if lead < 0x80 {
                        // ASCII, most bytes of most texts, told apart by value (a first pass
                        // for texts all ASCII went over most texts twice).
                        switch lead {
                        case 0x20, 0x09...0x0D:
                            inJoinableWhitespace = lead == 0x20
                            pendingSpace = count > 0
                        default:
                            if pendingSpace {
                                result[count] = UInt8(ascii: " ")
                                count += 1
                                pendingSpace = false
                            }
                            result[count] = lead
                            count += 1
                            inJoinableWhitespace = false
                        }
                        index += 1
                        continue
                    }
                    let length = lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
                    let scalar = Summary.scalar(bytes, at: index, length: length)
                    if let joinable = Summary.whitespace(scalar) {
                        inJoinableWhitespace = joinable
                        pendingSpace = count > 0
                    } else if !(inJoinableWhitespace && extendsCharacter(Unicode.Scalar(scalar)!)) {
                        if pendingSpace {
                            result[count] = UInt8(ascii: " ")
                            count += 1
                        }
                        for offset in 0..<length { result[count + offset] = bytes[index + offset] }
                        count += length
                        inJoinableWhitespace = false
                        pendingSpace = false
                    }
                    // Else a mark that is part of the whitespace character before it, which is
                    // dropped whole.
                    index += length
                }
            }
            return String(decoding: collapsed, as: UTF8.self)
        }
    }

    /// The scalar of the `length`-byte UTF-8 sequence at `index` of valid UTF-8.
    @inline(__always)
    private static func scalar(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, length: Int) -> UInt32 {
        var value = UInt32(bytes[index]) & (0xFF >> (length + 1))
        for next in (index + 1)..<(index + length) { value = value << 6 | UInt32(bytes[next] & 0x3F) }
        return value
    }

    /// Whether `scalar` is whitespace (Unicode's White_Space, a list that does not change),
    /// and if so whether a mark after it joins it: the space and the spaces of other scripts
    /// do; controls (tab, line breaks, NEL) and the line and paragraph separators end their
    /// character. Nil for any other scalar.
    @inline(__always)
    static func whitespace(_ scalar: UInt32) -> Bool? {
        switch scalar {
        case 0x20, 0xA0, 0x1680, 0x2000...0x200A, 0x202F, 0x205F, 0x3000: true
        case 0x09...0x0D, 0x85, 0x2028, 0x2029: false
        default: nil
        }
    }

    /// Scalars that never begin a character: they join the one before (extend, ZWJ,
    /// spacing marks). No ASCII scalar is one, and asking ICU of each letter after a space
    /// was a tenth of an article's validation once smart quotes made its text non-ASCII.
    private static func extendsCharacter(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isGraphemeExtend || scalar.value == 0x200D || scalar.properties.generalCategory == .spacingMark
    }
}

extension String {
    /// Percent-encodes what may not stand in a URL path; `/` stays.
    var urlPathEncoded: String {
        // Over the bytes in place (a String's UTF-8 view checks its storage at every byte):
        // every link of every page is made here. Nearly every path (a slug) needs no
        // escape and is returned as it is.
        var text = self
        return text.withUTF8 { bytes -> String in
            guard !bytes.allSatisfy(String.staysInURLPath) else { return self }
            let hex: StaticString = "0123456789ABCDEF"
            var escaped: [UInt8] = []
            escaped.reserveCapacity(bytes.count * 3)
            for byte in bytes {
                if String.staysInURLPath(byte) {
                    escaped.append(byte)
                } else {
                    escaped.append(UInt8(ascii: "%"))
                    escaped.append(hex.utf8Start[Int(byte >> 4)])
                    escaped.append(hex.utf8Start[Int(byte & 0x0F)])
                }
            }
            return String(decoding: escaped, as: UTF8.self)
        }
    }

    private static func staysInURLPath(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
            true
        default:
            false
        }
    }
}
