import Foundation
import SitegenContent
import SitegenPipeline
import SitegenSupport

/// How models are kept in the build cache. Every reader mirrors its writer field for field.
extension BinaryWriter {
    mutating func date(_ value: CalendarDate) {
        integer(value.year)
        integer(value.month)
        integer(value.day)
    }

    mutating func time(_ value: TimeOfDay) {
        integer(value.hour)
        integer(value.minute)
        integer(value.second)
    }

    mutating func dateTime(_ value: DateTimeValue) {
        date(value.date)
        optional(value.time) { $0.time($1) }
        optional(value.offsetSeconds) { $0.integer($1) }
    }

    mutating func place(_ value: SlugPlace) {
        integer(Int(value.line))
        integer(Int(value.column))
    }

    mutating func location(_ value: SourceLocation) {
        string(value.path)
        integer(value.line)
        integer(value.column)
    }

    mutating func diagnostic(_ value: Diagnostic) {
        location(value.location)
        bool(value.severity == .error)
        string(value.message)
    }

    /// Written as `string` writes text, so it reads back with `string` or `slice`.
    mutating func text(_ value: StoredText) {
        value.withUTF8 { slice($0) }
    }

    mutating func label(_ value: Label) {
        string(value.name)
        string(value.slug.text)
    }

    mutating func image(_ value: ResolvedImage) {
        switch value.location {
        case .site(let path):
            bool(true)
            string(path)
        case .remote(let url):
            bool(false)
            string(url)
        }
        string(value.alt)
        optional(value.width) { $0.integer($1) }
        optional(value.height) { $0.integer($1) }
    }

    mutating func link(_ value: ContentLink) {
        string(value.written)
        string(value.resolved)
        location(value.location)
    }

    mutating func teacher(_ value: Teacher) {
        string(value.id)
        string(value.name)
        string(value.subject)
        array(value.grades) { $0.string($1.text) }
        optional(value.blog) { $0.string($1.text) }
        optional(value.email) { $0.string($1) }
    }

    /// `htmlInPage`: leaves out the HTML, which the article's page has (`PageHTML`).
    mutating func article(_ value: Article, htmlInPage: Bool = false) {
        string(value.sourcePath)
        string(value.slug.text)
        place(value.slugPlace)
        string(value.title)
        dateTime(value.date)
        integer(value.instant)
        string(value.summary)
        optional(value.cover) { $0.image($1) }
        optional(value.meal) { $0.label($1) }
        optional(value.price) { writer, price in
            writer.decimal(price.amount)
            writer.string(price.currency.code)
        }
        optional(value.author) { writer, author in
            writer.string(author.name)
            writer.optional(author.username) { $0.string($1) }
        }
        optional(value.restaurant) { writer, restaurant in
            writer.optional(restaurant.name) { $0.string($1) }
            writer.optional(restaurant.address) { $0.string($1) }
            writer.optional(restaurant.latitude) { $0.unsigned($1.bitPattern) }
            writer.optional(restaurant.longitude) { $0.unsigned($1.bitPattern) }
            writer.optional(restaurant.slug) { $0.string($1) }
        }
        optional(value.restaurantLocation) { $0.location($1) }
        array(value.tags) { $0.label($1) }
        bool(value.draft)
        // The HTML that the article's page holds is read from there (`PageTexts`).
        bool(htmlInPage)
        if htmlInPage {
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
    }

    mutating func assignment(_ value: Assignment) {
        string(value.sourcePath)
        string(value.id)
        string(value.title)
        optional(value.teacher) { $0.teacher($1) }
        string(value.subject)
        array(value.grades) { $0.string($1.text) }
        string(value.icon.rawValue)
        date(value.assigned)
        optional(value.due) { $0.dateTime($1) }
        optional(value.link) { $0.string($1.text) }
        bool(value.draft)
        text(value.detailsHTML)
        text(value.detailsText)
        array(value.links) { $0.link($1) }
    }

    mutating func page(_ value: Page) {
        string(value.sourcePath)
        string(value.slug.text)
        place(value.slugPlace)
        string(value.title)
        string(value.summary)
        bool(value.draft)
        string(value.html)
        array(value.links) { $0.link($1) }
    }
}

extension BinaryReader {
    mutating func date() throws(Corrupt) -> CalendarDate {
        CalendarDate(year: try integer(), month: try integer(), day: try integer())
    }

    mutating func time() throws(Corrupt) -> TimeOfDay {
        TimeOfDay(hour: try integer(), minute: try integer(), second: try integer())
    }

    mutating func dateTime() throws(Corrupt) -> DateTimeValue {
        DateTimeValue(date: try date(), time: try optional { reader throws(Corrupt) in try reader.time() },
                      offsetSeconds: try optional { reader throws(Corrupt) in try reader.integer() })
    }

    mutating func place() throws(Corrupt) -> SlugPlace {
        SlugPlace(line: Int32(clamping: try integer()), column: Int32(clamping: try integer()))
    }

    mutating func location() throws(Corrupt) -> SourceLocation {
        SourceLocation(path: try string(), line: try integer(), column: try integer())
    }

    mutating func diagnostic() throws(Corrupt) -> Diagnostic {
        let location = try location()
        return Diagnostic(try bool() ? .error : .warning, at: location, try string())
    }

    mutating func slug() throws(Corrupt) -> Slug {
        guard let slug = Slug(validating: try string()) else { throw Corrupt() }
        return slug
    }

    mutating func label() throws(Corrupt) -> Label {
        Label(name: try string(), slug: try slug())
    }

    mutating func image() throws(Corrupt) -> ResolvedImage {
        let location: ResolvedImage.Location = try bool() ? .site(try string()) : .remote(try string())
        return ResolvedImage(location: location, alt: try string(),
                             width: try optional { reader throws(Corrupt) in try reader.integer() },
                             height: try optional { reader throws(Corrupt) in try reader.integer() })
    }

    mutating func link() throws(Corrupt) -> ContentLink {
        ContentLink(written: try string(), resolved: try string(), location: try location())
    }

    mutating func webURL() throws(Corrupt) -> WebURL {
        WebURL(checked: try string())
    }

    mutating func teacher() throws(Corrupt) -> Teacher {
        Teacher(id: try string(), name: try string(), subject: try string(),
                grades: try array { reader throws(Corrupt) in GradeID(try reader.string()) },
                blog: try optional { reader throws(Corrupt) in try reader.webURL() },
                email: try optional { reader throws(Corrupt) in try reader.string() })
    }

    /// `pages`: where the HTML left out of the store is.
    mutating func article(pages: PageTexts?) throws(Corrupt) -> Article {
        Article(try ArticleFields(from: &self, pages: pages))
    }

    mutating func assignment(teachers: KnownTeachers?) throws(Corrupt) -> Assignment {
        Assignment(try AssignmentFields(from: &self, teachers: teachers))
    }

    /// A teacher as `BinaryWriter.teacher` wrote it: one of `known` when its bytes are.
    mutating func teacher(known: KnownTeachers?) throws(Corrupt) -> Teacher {
        for (bytes, teacher) in known?.encodings ?? [] where skip(ifNextAre: bytes) { return teacher }
        return try teacher()
    }

    mutating func page() throws(Corrupt) -> Page {
        try Page(from: &self)
    }
}

extension ArticleFields {
    init(from reader: inout BinaryReader, pages: PageTexts?) throws(BinaryReader.Corrupt) {
        let sourcePath = try reader.string()
        let slug = try reader.slug()
        let slugPlace = try reader.place()
        let title = try reader.string()
        let date = try reader.dateTime()
        let instant = try reader.integer()
        let summary = try reader.string()
        let cover = try reader.optional { reader throws(BinaryReader.Corrupt) in try reader.image() }
        let meal = try reader.optional { reader throws(BinaryReader.Corrupt) in try reader.label() }
        let price = try reader.optional { reader throws(BinaryReader.Corrupt) -> Price in
            Price(amount: try reader.decimal(), currency: CurrencyCode(try reader.string()))
        }
        let author = try reader.optional { reader throws(BinaryReader.Corrupt) in
            Site.Author(name: try reader.string(), username: try reader.optional { reader throws(BinaryReader.Corrupt) in try reader.string() })
        }
        let restaurant = try reader.optional { reader throws(BinaryReader.Corrupt) in
            Restaurant(name: try reader.optional { reader throws(BinaryReader.Corrupt) in try reader.string() },
                       address: try reader.optional { reader throws(BinaryReader.Corrupt) in try reader.string() },
                       latitude: try reader.optional { reader throws(BinaryReader.Corrupt) in Double(bitPattern: try reader.unsigned()) },
                       longitude: try reader.optional { reader throws(BinaryReader.Corrupt) in Double(bitPattern: try reader.unsigned()) },
                       slug: try reader.optional { reader throws(BinaryReader.Corrupt) in try reader.string() })
        }
        let restaurantLocation = try reader.optional { reader throws(BinaryReader.Corrupt) in try reader.location() }
        let tags = try reader.array { reader throws(BinaryReader.Corrupt) in try reader.label() }
        let draft = try reader.bool()
        let mainHTML: StoredText
        let subContents: [SubContent]
        if try reader.bool() {
            let images = try reader.array { reader throws(BinaryReader.Corrupt) in try reader.image() }
            let pagePath = ArticleFields.pagePath(of: slug)
            guard let html = pages?.deferred(ofPage: pagePath + "index.html", count: images.count + 1, source: sourcePath) else {
                throw BinaryReader.Corrupt()
            }
            mainHTML = StoredText(html, piece: 0)
            subContents = images.enumerated().map { SubContent(image: $1, html: StoredText(html, piece: $0 + 1)) }
        } else {
            mainHTML = StoredText(utf8: try reader.slice())
            subContents = try reader.array { reader throws(BinaryReader.Corrupt) in SubContent(image: try reader.image(), html: StoredText(utf8: try reader.slice())) }
        }
        let links = try reader.array { reader throws(BinaryReader.Corrupt) in try reader.link() }
        self.init(sourcePath: sourcePath, slug: slug, slugPlace: slugPlace, title: title, date: date, instant: instant, summary: summary, cover: cover, meal: meal, price: price, author: author, restaurant: restaurant, restaurantLocation: restaurantLocation, tags: tags, draft: draft, mainHTML: mainHTML, subContents: subContents, links: links)
    }
}

/// The site's teachers as the cache writes them: an assignment's teacher is recognised by
/// its bytes and shared, instead of its strings read again for every assignment.
struct KnownTeachers: Sendable {
    fileprivate let encodings: [([UInt8], Teacher)]

    init(_ teachers: [Teacher]) {
        encodings = teachers.map { teacher in
            var writer = BinaryWriter()
            writer.teacher(teacher)
            return (writer.bytes, teacher)
        }
    }
}

extension AssignmentFields {
    init(from reader: inout BinaryReader, teachers: KnownTeachers?) throws(BinaryReader.Corrupt) {
        let sourcePath = try reader.string()
        let id = try reader.string()
        let title = try reader.string()
        let teacher = try reader.optional { reader throws(BinaryReader.Corrupt) in try reader.teacher(known: teachers) }
        let subject = try reader.string()
        let grades = try reader.array { reader throws(BinaryReader.Corrupt) in GradeID(try reader.string()) }
        guard let icon = AssignmentIcon(rawValue: try reader.string()) else { throw BinaryReader.Corrupt() }
        let assigned = try reader.date()
        let due = try reader.optional { reader throws(BinaryReader.Corrupt) in try reader.dateTime() }
        let link = try reader.optional { reader throws(BinaryReader.Corrupt) in try reader.webURL() }
        let draft = try reader.bool()
        let detailsHTML = StoredText(utf8: try reader.slice())
        let detailsText = StoredText(utf8: try reader.slice())
        let links = try reader.array { reader throws(BinaryReader.Corrupt) in try reader.link() }
        self.init(sourcePath: sourcePath, id: id, title: title, teacher: teacher, subject: subject, grades: grades, icon: icon, assigned: assigned, due: due, link: link, draft: draft, detailsHTML: detailsHTML, detailsText: detailsText, links: links)
    }
}

extension Page {
    init(from reader: inout BinaryReader) throws(BinaryReader.Corrupt) {
        let sourcePath = try reader.string()
        let slug = try reader.slug()
        let slugPlace = try reader.place()
        let title = try reader.string()
        let summary = try reader.string()
        let draft = try reader.bool()
        let html = try reader.string()
        let links = try reader.array { reader throws(BinaryReader.Corrupt) in try reader.link() }
        self.init(sourcePath: sourcePath, slug: slug, slugPlace: slugPlace, title: title, summary: summary, draft: draft, html: html, links: links)
    }
}

/// Decimals as their parts: printing and parsing the text of every article's price cost
/// more than the rest of its entry.
extension BinaryWriter {
    /// A sign, an exponent and a significand of 64 bits when those remake the very same
    /// Decimal (every price of a few digits), else the text (`0.000` keeps its exponent in
    /// a way the parts do not).
    mutating func decimal(_ value: Decimal) {
        if let parts = DecimalParts(value) {
            bool(true)
            bool(parts.negative)
            integer(parts.exponent)
            unsigned(parts.significand)
        } else {
            bool(false)
            string("\(value)")
        }
    }
}

extension BinaryReader {
    mutating func decimal() throws(Corrupt) -> Decimal {
        if try bool() {
            let negative = try bool()
            let exponent = try integer()
            let significand = try unsigned()
            guard (-128...127).contains(exponent) else { throw Corrupt() }
            return DecimalParts.decimal(negative: negative, exponent: exponent, significand: significand)
        }
        guard let value = Number.decimal(parsing: try string()) else { throw Corrupt() }
        return value
    }
}

private struct DecimalParts {
    var negative: Bool
    var exponent: Int
    var significand: UInt64

    init?(_ value: Decimal) {
        guard !value.isZero, value.isFinite else { return nil }
        negative = value.sign == .minus
        exponent = value.exponent
        // Checked below: whatever the conversion does to a significand beyond 64 bits, the
        // parts must remake the value byte for byte.
        significand = NSDecimalNumber(decimal: value.significand.magnitude).uint64Value
        let remade = DecimalParts.decimal(negative: negative, exponent: exponent, significand: significand)
        let same = withUnsafeBytes(of: remade) { remade in withUnsafeBytes(of: value) { remade.elementsEqual($0) } }
        guard same else { return nil }
    }

    static func decimal(negative: Bool, exponent: Int, significand: UInt64) -> Decimal {
        Decimal(sign: negative ? .minus : .plus, exponent: exponent, significand: Decimal(significand))
    }
}

extension BinaryWriter {
    mutating func formatFacts(_ value: FormatFacts) {
        string(value.language.text)
        switch value.months {
        case nil: integer(0)
        case .some(nil): integer(1)
        case .some(let patterns?):
            integer(2)
            array(patterns) { writer, pattern in
                writer.array(pattern.pieces) { writer, piece in
                    switch piece {
                    case .text(let text):
                        writer.integer(0)
                        writer.string(text)
                    case .day: writer.integer(1)
                    case .year: writer.integer(2)
                    }
                }
            }
        }
        array(value.currencies.sorted { $0.key.code < $1.key.code }) { writer, entry in
            writer.string(entry.key.code)
            writer.string(entry.value.symbol)
            writer.integer(entry.value.fractionDigits.lowerBound)
            writer.integer(entry.value.fractionDigits.upperBound)
            writer.optional(entry.value.plain) { writer, plain in
                writer.string(plain.separator)
                writer.integer(plain.minimumFractionDigits)
                writer.integer(plain.maximumFractionDigits)
            }
        }
    }
}

extension BinaryReader {
    /// Checked as `DatePattern` and `CurrencyFacts` make them: twelve months, each with its
    /// day once; fraction digits in order.
    mutating func formatFacts() throws(Corrupt) -> FormatFacts {
        var facts = FormatFacts(language: LanguageTag(try string()))
        switch try integer() {
        case 0: facts.months = nil
        case 1: facts.months = .some(nil)
        case 2:
            let patterns = try array { reader throws(Corrupt) -> DatePattern in
                let pieces = try reader.array { reader throws(Corrupt) -> DatePattern.Piece in
                    switch try reader.integer() {
                    case 0: return .text(try reader.string())
                    case 1: return .day
                    case 2: return .year
                    default: throw Corrupt()
                    }
                }
                guard pieces.count(where: { $0 == .day }) == 1 else { throw Corrupt() }
                return DatePattern(pieces: pieces)
            }
            guard patterns.count == 12 else { throw Corrupt() }
            facts.months = .some(patterns)
        default: throw Corrupt()
        }
        let currencies = try array { reader throws(Corrupt) -> (CurrencyCode, CurrencyFacts) in
            let code = CurrencyCode(try reader.string())
            let symbol = try reader.string()
            let lower = try reader.integer()
            let upper = try reader.integer()
            guard 0 <= lower, lower <= upper else { throw Corrupt() }
            let plain = try reader.optional { reader throws(Corrupt) -> PlainAmounts in
                PlainAmounts(separator: try reader.string(), minimumFractionDigits: try reader.integer(), maximumFractionDigits: try reader.integer())
            }
            return (code, CurrencyFacts(symbol: symbol, fractionDigits: lower...upper, plain: plain))
        }
        for (code, currency) in currencies {
            guard facts.currencies.updateValue(currency, forKey: code) == nil else { throw Corrupt() }
        }
        return facts
    }
}
