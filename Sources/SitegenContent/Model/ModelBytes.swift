import Foundation
import SitegenSupport

/// How the models' values are written in bytes (`BinaryWriter`), as the build cache keeps
/// them, and read back; every reader mirrors its writer field for field. Each model writes
/// its own fields beside its definition (`BinaryWriter.article`, `ArticleFields(from:)`).
extension BinaryWriter {
    public mutating func date(_ value: CalendarDate) {
        integer(value.year)
        integer(value.month)
        integer(value.day)
    }

    public mutating func time(_ value: TimeOfDay) {
        integer(value.hour)
        integer(value.minute)
        integer(value.second)
    }

    public mutating func dateTime(_ value: DateTimeValue) {
        date(value.date)
        optional(value.time) { $0.time($1) }
        optional(value.offsetSeconds) { $0.integer($1) }
    }

    public mutating func place(_ value: LineAndColumn) {
        integer(Int(value.line))
        integer(Int(value.column))
    }

    public mutating func location(_ value: SourceLocation) {
        string(value.path)
        integer(value.line)
        integer(value.column)
    }

    /// A severity's number in the bytes.
    static let severities: [Diagnostic.Severity] = [.error, .warning, .note]

    public mutating func diagnostic(_ value: Diagnostic) {
        location(value.location)
        unsigned(Self.severities.firstIndex(of: value.severity).map { UInt64($0) } ?? 0)
        string(value.message)
    }

    /// Written as `string` writes text, so it reads back with `string` or `slice`.
    public mutating func text(_ value: StoredText) {
        value.withUTF8 { slice($0) }
    }

    public mutating func label(_ value: Label) {
        string(value.name)
        string(value.slug.text)
    }

    public mutating func image(_ value: ResolvedImage) {
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
        optional(value.photo) { writer, photo in
            writer.string(photo.format.rawValue)
            writer.integer(photo.width)
            writer.integer(photo.height)
        }
        optional(value.usedAt) { $0.location($1) }
    }

    public mutating func link(_ value: ContentLink) {
        string(value.written)
        string(value.resolved)
        location(value.location)
    }

    public mutating func teacher(_ value: Teacher) {
        string(value.id)
        string(value.name)
        string(value.subject)
        array(value.grades) { $0.string($1.text) }
        optional(value.blog) { $0.string($1.text) }
        optional(value.email) { $0.string($1) }
        optional(value.feed) { writer, feed in
            switch feed {
            case .web(let url): writer.integer(0); writer.string(url.text)
            case .file(let path): writer.integer(1); writer.string(path)
            }
        }
        extra(value.extra)
    }

    /// `htmlInPage`: leaves out the HTML, which the article's page has (`PageHTML`).
}

extension BinaryReader {
    public mutating func date() throws(Corrupt) -> CalendarDate {
        CalendarDate(year: try integer(), month: try integer(), day: try integer())
    }

    public mutating func time() throws(Corrupt) -> TimeOfDay {
        TimeOfDay(hour: try integer(), minute: try integer(), second: try integer())
    }

    public mutating func dateTime() throws(Corrupt) -> DateTimeValue {
        DateTimeValue(date: try date(), time: try optional { reader throws(Corrupt) in try reader.time() },
                      offsetSeconds: try optional { reader throws(Corrupt) in try reader.integer() })
    }

    public mutating func place() throws(Corrupt) -> LineAndColumn {
        LineAndColumn(line: Int32(clamping: try integer()), column: Int32(clamping: try integer()))
    }

    public mutating func location() throws(Corrupt) -> SourceLocation {
        SourceLocation(path: try string(), line: try integer(), column: try integer())
    }

    public mutating func diagnostic() throws(Corrupt) -> Diagnostic {
        let location = try location()
        let severity = try unsigned()
        guard severity < BinaryWriter.severities.count else { throw Corrupt() }
        return Diagnostic(BinaryWriter.severities[Int(severity)], at: location, try string())
    }

    public mutating func slug() throws(Corrupt) -> Slug {
        guard let slug = Slug(validating: try string()) else { throw Corrupt() }
        return slug
    }

    public mutating func label() throws(Corrupt) -> Label {
        Label(name: try string(), slug: try slug())
    }

    public mutating func image() throws(Corrupt) -> ResolvedImage {
        let location: ResolvedImage.Location = try bool() ? .site(try string()) : .remote(try string())
        return ResolvedImage(location: location, alt: try string(),
                             width: try optional { reader throws(Corrupt) in try reader.integer() },
                             height: try optional { reader throws(Corrupt) in try reader.integer() },
                             photo: try optional { reader throws(Corrupt) in
                                 guard let format = PhotoFile.Format(rawValue: try reader.string()) else { throw Corrupt() }
                                 return PhotoFile(format: format, width: try reader.integer(), height: try reader.integer())
                             },
                             usedAt: try optional { reader throws(Corrupt) in try reader.location() })
    }

    public mutating func link() throws(Corrupt) -> ContentLink {
        ContentLink(written: try string(), resolved: try string(), location: try location())
    }

    public mutating func webURL() throws(Corrupt) -> WebURL {
        WebURL(checked: try string())
    }

    public mutating func teacher() throws(Corrupt) -> Teacher {
        Teacher(id: try string(), name: try string(), subject: try string(),
                grades: try array { reader throws(Corrupt) in GradeID(try reader.string()) },
                blog: try optional { reader throws(Corrupt) in try reader.webURL() },
                email: try optional { reader throws(Corrupt) in try reader.string() },
                feed: try optional { reader throws(Corrupt) in
                    switch try reader.integer() {
                    case 0: .web(try reader.webURL())
                    case 1: .file(try reader.string())
                    default: throw Corrupt()
                    }
                },
                extra: try extra())
    }

    /// `pages`: where the HTML left out of the store is.
    /// A teacher as `BinaryWriter.teacher` wrote it: one of `known` when its bytes are.
    public mutating func teacher(known: KnownTeachers?) throws(Corrupt) -> Teacher {
        for (bytes, teacher) in known?.encodings ?? [] where skip(ifNextAre: bytes) { return teacher }
        return try teacher()
    }

}

/// The site's teachers as the cache writes them: an assignment's teacher is recognised by
/// its bytes and shared, instead of its strings read again for every assignment.
public struct KnownTeachers: Sendable {
    fileprivate let encodings: [([UInt8], Teacher)]

    public init(_ teachers: [Teacher]) {
        encodings = teachers.map { teacher in
            var writer = BinaryWriter()
            writer.teacher(teacher)
            return (writer.bytes, teacher)
        }
    }
}

/// Decimals as their parts: printing and parsing the text of every article's price cost
/// more than the rest of its entry.
extension BinaryWriter {
    /// A sign, an exponent and a significand of 64 bits when those remake the very same
    /// Decimal (every price of a few digits), else the text (`0.000` keeps its exponent in
    /// a way the parts do not).
    public mutating func decimal(_ value: Decimal) {
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
    public mutating func decimal() throws(Corrupt) -> Decimal {
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

    public init?(_ value: Decimal) {
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

    public static func decimal(negative: Bool, exponent: Int, significand: UInt64) -> Decimal {
        Decimal(sign: negative ? .minus : .plus, exponent: exponent, significand: Decimal(significand))
    }
}
