import Foundation
import SitegenSupport
import SitegenYAML

extension String: FrontMatterValue {
    static var expectation: String { "text" }

    init(node: YAMLNode) throws(ValueProblem) {
        guard let scalar = node.scalar, !scalar.isNull else { throw .mismatch }
        self = scalar.text
    }
}

extension Bool: FrontMatterValue {
    static var expectation: String { "true or false" }

    init(node: YAMLNode) throws(ValueProblem) {
        guard let scalar = node.scalar else { throw .mismatch }
        let value: Bool
        switch scalar.text {
        case "true", "True", "TRUE": value = true
        case "false", "False", "FALSE": value = false
        default: throw .mismatch
        }
        guard scalar.style == .plain else { throw .quoted(scalar.text, expected: Bool.expectation) }
        self = value
    }
}

extension Int: FrontMatterValue {
    static var expectation: String { "a whole number" }

    init(node: YAMLNode) throws(ValueProblem) {
        guard let scalar = node.scalar, let value = Int(scalar.text) else { throw .mismatch }
        guard scalar.style == .plain else { throw .quoted(scalar.text, expected: Int.expectation) }
        self = value
    }
}

/// A number as written (`34`, `12.5`), kept exactly as a decimal.
struct Number: FrontMatterValue, Hashable, Sendable {
    var value: Decimal
    var text: String

    static var expectation: String { "a number" }

    init(node: YAMLNode) throws(ValueProblem) {
        guard let scalar = node.scalar, scalar.style == .plain, Number.isNumeral(scalar.text),
              let value = Number.decimal(parsing: scalar.text)
        else {
            if let scalar = node.scalar, scalar.style == .quoted, Number.isNumeral(scalar.text) {
                throw .quoted(scalar.text, expected: Number.expectation)
            }
            throw .mismatch
        }
        self.value = value
        self.text = scalar.text
    }

    /// The value of a numeral (digits, at most one dot, a sign), exactly as written.
    static func decimal(parsing text: String) -> Decimal? {
        decimal(fromNumeral: text) ?? Decimal(string: text, locale: Number.posix)
    }

    /// The value of a numeral of at most 18 digits, made from its digits as an integer and
    /// the count of digits after the dot — the same Decimal `Decimal(string:)` makes, at a
    /// seventh of the cost (every article has a price and two coordinates). Nil for longer
    /// numerals and for zero (whose exponent `Decimal(string:)` keeps): those take the
    /// general parser.
    static func decimal(fromNumeral text: String) -> Decimal? {
        var significand: UInt64 = 0
        var digits = 0
        var fractionDigits = 0
        var afterDot = false
        var negative = false
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                digits += 1
                guard digits <= 18 else { return nil }
                significand = significand * 10 + UInt64(byte - UInt8(ascii: "0"))
                if afterDot { fractionDigits += 1 }
            case UInt8(ascii: "."): afterDot = true
            case UInt8(ascii: "-"): negative = true
            default: continue
            }
        }
        guard significand != 0 else { return nil }
        return Decimal(sign: negative ? .minus : .plus, exponent: -fractionDigits, significand: Decimal(significand))
    }

    var doubleValue: Double { NSDecimalNumber(decimal: value).doubleValue }

    /// Made once: making a locale for every number cost more than reading it.
    private static let posix = Locale(identifier: "en_US_POSIX")

    /// Digits with at most one dot and a sign before them, over the bytes (any byte of a
    /// longer character is refused, as the character would be).
    private static func isNumeral(_ text: String) -> Bool {
        var digits = 0
        var dots = 0
        for (index, byte) in text.utf8.enumerated() {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digits += 1
            case UInt8(ascii: "."): dots += 1
            case UInt8(ascii: "-") where index == 0, UInt8(ascii: "+") where index == 0: continue
            default: return false
            }
        }
        return digits > 0 && dots <= 1
    }
}

/// A day of the calendar, `YYYY-MM-DD`, checked to exist.
struct CalendarDate: FrontMatterValue, Hashable, Comparable, Sendable, CustomStringConvertible {
    var year: Int
    var month: Int
    var day: Int

    static var expectation: String { "a date like 2026-12-01" }

    init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    init(node: YAMLNode) throws(ValueProblem) {
        guard let scalar = node.scalar else { throw .mismatch }
        guard let date = CalendarDate(parsing: scalar.text[...]) else { throw .mismatch }
        try date.check()
        self = date
    }

    /// Reads exactly `YYYY-MM-DD` without checking that the day exists.
    init?(parsing text: Substring) {
        // Byte by byte: every assignment has two or three dates.
        guard text.utf8.count == 10,
              let year = Self.digits(text.utf8, 0..<4), let month = Self.digits(text.utf8, 5..<7), let day = Self.digits(text.utf8, 8..<10),
              text.utf8[text.utf8.index(text.utf8.startIndex, offsetBy: 4)] == UInt8(ascii: "-"),
              text.utf8[text.utf8.index(text.utf8.startIndex, offsetBy: 7)] == UInt8(ascii: "-")
        else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// The number the ASCII digits at `offsets` of `bytes` write, or nil if any is not a digit.
    static func digits(_ bytes: Substring.UTF8View, _ offsets: Range<Int>) -> Int? {
        var value = 0
        for offset in offsets {
            let byte = bytes[bytes.index(bytes.startIndex, offsetBy: offset)]
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    func check() throws(ValueProblem) {
        guard (1...12).contains(month) else {
            throw .invalid("must be a real calendar day, found '\(self)': there is no month \(month)")
        }
        let days = CalendarDate.days(inMonth: month, year: year)
        guard (1...days).contains(day) else {
            throw .invalid("must be a real calendar day, found '\(self)': \(CalendarDate.monthNames[month - 1]) \(year) has \(days) days")
        }
    }

    static let monthNames = ["January", "February", "March", "April", "May", "June", "July",
                             "August", "September", "October", "November", "December"]

    static func days(inMonth month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    var description: String {
        // Written straight into a small string: pages print thousands of dates, and joining
        // three padded numbers cost 1 % more instructions on the 1,000 + 5,000 corpus.
        guard (0...9999).contains(year) else { return year.zeroPadded(4) + "-" + month.zeroPadded(2) + "-" + day.zeroPadded(2) }
        return String(unsafeUninitializedCapacity: 10) { bytes in
            func digit(_ value: Int) -> UInt8 { UInt8(ascii: "0") + UInt8(value % 10) }
            bytes[0] = digit(year / 1000)
            bytes[1] = digit(year / 100)
            bytes[2] = digit(year / 10)
            bytes[3] = digit(year)
            bytes[4] = UInt8(ascii: "-")
            bytes[5] = digit(month / 10)
            bytes[6] = digit(month)
            bytes[7] = UInt8(ascii: "-")
            bytes[8] = digit(day / 10)
            bytes[9] = digit(day)
            return 10
        }
    }

    /// Days since 1970-01-01, for weekday and distance arithmetic.
    var dayNumber: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let monthIndex = (month + 9) % 12
        let dayOfYear = (153 * monthIndex + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}

/// `HH:MM` on a 24-hour clock.
struct TimeOfDay: FrontMatterValue, Hashable, Comparable, Sendable, CustomStringConvertible {
    var hour: Int
    var minute: Int
    var second: Int = 0

    static var expectation: String { "a time like 14:00" }

    init(hour: Int, minute: Int, second: Int = 0) {
        self.hour = hour
        self.minute = minute
        self.second = second
    }

    init(node: YAMLNode) throws(ValueProblem) {
        guard let scalar = node.scalar, let time = TimeOfDay(parsing: scalar.text[...]) else { throw .mismatch }
        self = time
    }

    init?(parsing text: Substring) {
        let bytes = text.utf8
        guard bytes.count == 5 || bytes.count == 8,
              let hour = CalendarDate.digits(bytes, 0..<2), let minute = CalendarDate.digits(bytes, 3..<5), hour < 24, minute < 60,
              bytes[bytes.index(bytes.startIndex, offsetBy: 2)] == UInt8(ascii: ":")
        else { return nil }
        var second = 0
        if bytes.count == 8 {
            guard bytes[bytes.index(bytes.startIndex, offsetBy: 5)] == UInt8(ascii: ":"), let found = CalendarDate.digits(bytes, 6..<8), found < 60 else { return nil }
            second = found
        }
        self.init(hour: hour, minute: minute, second: second)
    }

    static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.hour, lhs.minute, lhs.second) < (rhs.hour, rhs.minute, rhs.second)
    }

    var description: String {
        hour.zeroPadded(2) + ":" + minute.zeroPadded(2) + (second == 0 ? "" : ":" + second.zeroPadded(2))
    }

    var secondsIntoDay: Int { hour * 3600 + minute * 60 + second }
}

/// A date, optionally with a time and a UTC offset: `2026-12-01`, `2026-12-01T08:00`,
/// `2026-12-01T08:00+08:00`. Without an offset it is read in the site's time zone.
struct DateTimeValue: FrontMatterValue, Hashable, Sendable, CustomStringConvertible {
    var date: CalendarDate
    var time: TimeOfDay?
    var offsetSeconds: Int?

    /// The same words as for a plain date: most fields are dates, and the time is an extra.
    static var expectation: String { "a date like 2026-12-01" }

    init(date: CalendarDate, time: TimeOfDay? = nil, offsetSeconds: Int? = nil) {
        self.date = date
        self.time = time
        self.offsetSeconds = offsetSeconds
    }

    init(node: YAMLNode) throws(ValueProblem) {
        guard let scalar = node.scalar else { throw .mismatch }
        let text = scalar.text
        let separator = text.firstIndex { $0 == "T" || $0 == " " || $0 == "t" }
        guard let date = CalendarDate(parsing: text[..<(separator ?? text.endIndex)]) else { throw .mismatch }
        try date.check()
        self.date = date
        guard let separator else { return }
        // The date was right: what is wrong is the time after it, which the words for a
        // plain date would not tell.
        func timeProblem() -> ValueProblem {
            .invalid("must be a date like 2026-12-01 or a date and time like 2026-12-01T08:00 or 2026-12-01T08:00+08:00, found '\(text)'")
        }
        var rest = text[text.index(after: separator)...]
        if rest.hasSuffix("Z") || rest.hasSuffix("z") {
            offsetSeconds = 0
            rest = rest.dropLast()
        } else if let sign = rest.lastIndex(where: { $0 == "+" || $0 == "-" }) {
            let offsetText = rest[rest.index(after: sign)...]
            guard let offset = TimeOfDay(parsing: offsetText), offset.second == 0, offset.hour <= 14 else { throw timeProblem() }
            offsetSeconds = (rest[sign] == "-" ? -1 : 1) * offset.secondsIntoDay
            rest = rest[..<sign]
        }
        guard let time = TimeOfDay(parsing: rest) else { throw timeProblem() }
        self.time = time
    }

    var description: String {
        var text = date.description
        if let time { text += "T" + time.description }
        if let offsetSeconds {
            text += offsetSeconds == 0 ? "Z" : (offsetSeconds < 0 ? "-" : "+") + (abs(offsetSeconds) / 3600).zeroPadded(2) + ":" + (abs(offsetSeconds) % 3600 / 60).zeroPadded(2)
        }
        return text
    }

    /// Seconds since 1970 in UTC, the local parts read in `zone` when no offset was written.
    func instant(in zone: TimeZone) -> Int {
        let local = date.dayNumber * 86_400 + (time?.secondsIntoDay ?? 0)
        if let offsetSeconds { return local - offsetSeconds }
        let guess = Date(timeIntervalSince1970: TimeInterval(local))
        let offset = zone.secondsFromGMT(for: guess.addingTimeInterval(TimeInterval(-zone.secondsFromGMT(for: guess))))
        return local - offset
    }
}

/// An `http` or `https` URL. Nothing else reaches a page as a link: no `javascript:`,
/// no `data:`, no relative paths where a web address is expected.
struct WebURL: FrontMatterValue, Hashable, Sendable, CustomStringConvertible {
    var text: String

    static var expectation: String { "an http or https URL like https://example.com/" }

    init(node: YAMLNode) throws(ValueProblem) {
        guard let scalar = node.scalar, let url = WebURL(scalar.text) else { throw .mismatch }
        self = url
    }

    init?(_ text: String) {
        // Over the UTF-8 bytes: every image of every article is checked, and lowercasing
        // and walking the characters of each URL cost a fiftieth of a build. Every scalar
        // the check refuses is ASCII, and no byte of a longer scalar is ASCII.
        var contiguous = text
        let valid = contiguous.withUTF8 { bytes -> Bool in
            func lowered(_ byte: UInt8) -> UInt8 { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte }
            func hasScheme(_ scheme: StaticString) -> Bool {
                bytes.count >= scheme.utf8CodeUnitCount && (0..<scheme.utf8CodeUnitCount).allSatisfy { lowered(bytes[$0]) == scheme.utf8Start[$0] }
            }
            let schemeLength: Int
            if hasScheme("https://") { schemeLength = 8 } else if hasScheme("http://") { schemeLength = 7 } else { return false }
            guard !bytes.contains(where: { $0 <= 0x20 || $0 == 0x7F || $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") || $0 == UInt8(ascii: "\"") })
            else { return false }
            let hostEnd = bytes[schemeLength...].firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? bytes.count
            return hostEnd > schemeLength && bytes[schemeLength] != UInt8(ascii: "@") && bytes[schemeLength] != UInt8(ascii: ":")
        }
        guard valid else { return nil }
        self.text = text
    }

    /// A URL checked when its source was read, as the build cache gives it back (checked
    /// again, the blog of an assignment's teacher cost a tenth of a cached rebuild).
    init(checked text: String) {
        self.text = text
    }

    var description: String { text }
}

/// Where an image comes from: a file of the site, or an http/https URL.
enum ImageSource: FrontMatterValue, Hashable, Sendable {
    case local(String)
    case remote(WebURL)

    static var expectation: String { "a path to an image of the site or an http/https URL" }

    init(node: YAMLNode) throws(ValueProblem) {
        guard let scalar = node.scalar, !scalar.text.isEmpty else { throw .mismatch }
        guard let source = ImageSource(scalar.text) else {
            throw .invalid("must be a path to an image of the site or an http/https URL, found '\(scalar.text)'")
        }
        self = source
    }

    init?(_ text: String) {
        let utf8 = text.utf8
        if let colon = utf8.firstIndex(of: UInt8(ascii: ":")), !utf8[..<colon].contains(UInt8(ascii: "/")) {
            guard let url = WebURL(text) else { return nil }
            self = .remote(url)
        } else {
            guard !utf8.contains(0), !utf8.contains(UInt8(ascii: "\\")) else { return nil }
            self = .local(text)
        }
    }
}

/// Where a link written in Markdown may lead: a path (of the site, or `#` a place on the
/// page) or an address of one of `schemes`. Checked because a browser runs a
/// `javascript:` link and opens a `data:` or `file:` one as a document of its own, and
/// cmark leaves such a link's address out of the page without a word, so that the author
/// would not know the link went dead.
enum LinkDestination {
    static let schemes: [String] = ["http", "https", "mailto", "tel", "sms", "geo", "webcal"]

    static let expectation = "a path or an http, https, mailto, tel, sms, geo or webcal address"

    /// The allowed schemes, each in one word, its first byte lowest (all are 8 bytes or
    /// fewer).
    private static let allowedWords: [UInt64] = schemes.map { scheme in
        scheme.utf8.enumerated().reduce(0) { $0 | UInt64($1.element) << (8 * $1.offset) }
    }

    /// The scheme a browser reads at the start of `destination`, lowercased, when it is
    /// not one of `schemes`; nil for an allowed address or a path.
    static func refusedScheme(of destination: String) -> String? {
        // Every link of every page is checked: the scheme is read into a word, and a
        // string is made only of one that is refused.
        var word: UInt64 = 0
        var length = 0
        var ended = false
        for byte in destination.utf8 where byte != 0x09 && byte != 0x0A && byte != 0x0D {
            if length == 0, byte <= 0x20 { continue }
            guard let lowered = schemeByte(byte, first: length == 0) else {
                ended = byte == UInt8(ascii: ":") && length > 0
                break
            }
            if length < 8 { word |= UInt64(lowered) << (8 * length) }
            length += 1
        }
        guard ended, length > 8 || !allowedWords.contains(word) else { return nil }
        return scheme(of: destination)
    }

    /// The scheme as the URL standard parses it, lowercased: the spaces and controls
    /// before the address and every tab and line break in it dropped (`java&#9;script:` is
    /// still JavaScript), then a letter and letters, digits, `+`, `-` or `.` up to a colon.
    /// Nil when something else comes before the first colon: the address is a path.
    static func scheme(of destination: String) -> String? {
        var scheme: [UInt8] = []
        for byte in destination.utf8 where byte != 0x09 && byte != 0x0A && byte != 0x0D {
            if scheme.isEmpty, byte <= 0x20 { continue }
            guard let lowered = schemeByte(byte, first: scheme.isEmpty) else {
                return byte == UInt8(ascii: ":") && !scheme.isEmpty ? String(decoding: scheme, as: UTF8.self) : nil
            }
            scheme.append(lowered)
        }
        return nil
    }

    /// `byte` lowercased when a scheme may have it there; nil when it ends the scheme or
    /// makes the address a path.
    @inline(__always)
    private static func schemeByte(_ byte: UInt8, first: Bool) -> UInt8? {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"): byte
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): byte + 32
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."): first ? nil : byte
        default: nil
        }
    }
}

/// The last part of a URL: lowercase letters, digits and hyphens.
struct Slug: FrontMatterValue, Hashable, Comparable, Sendable, CustomStringConvertible {
    var text: String

    static var expectation: String { "lowercase letters, digits and hyphens like lovely-breakfast" }


    init(node: YAMLNode) throws(ValueProblem) {
        guard let scalar = node.scalar else { throw .mismatch }
        guard Slug.isValid(scalar.text) else {
            throw .invalid("must be lowercase letters, digits and hyphens like lovely-breakfast, found '\(scalar.text)'")
        }
        text = scalar.text
    }

    init?(validating text: String) {
        guard Slug.isValid(text) else { return nil }
        self.text = text
    }

    /// A slug made from any text: letters and digits of every script kept in lowercase,
    /// accents dropped from Latin letters (`Crème` → `creme`), anything else a hyphen.
    init?(making text: String) {
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            guard let made = Slug.textMade(fromASCII: text) else { return nil }
            self.text = made
            return
        }
        // Made once per text: the same tags and meals (點心, Crème brûlée) come back in
        // article after article.
        guard let made = Slug.madeFromText.value(for: text, making: Slug.textMade(fromUnicode:)) else { return nil }
        self.text = made
    }

    /// What texts that are not ASCII make, by text (nil: the text makes no slug).
    private static let madeFromText = TextMemo<String?>(limit: 10_000)
    private static let posix = Locale(identifier: "en_US_POSIX")

    /// What `init?(making:)` makes of text that is not all ASCII, character by character.
    private static func textMade(fromUnicode text: String) -> String? {
        var result = ""
        var pendingHyphen = false
        for character in text {
            let piece: String
            if character.isASCII {
                piece = character.isLetter || character.isNumber ? String(character).lowercased() : ""
            } else if character.isLetter || character.isNumber {
                let folded = String(character).folding(options: [.diacriticInsensitive, .widthInsensitive], locale: Slug.posix)
                piece = folded.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } ? folded.lowercased() : String(character).lowercased()
            } else {
                piece = ""
            }
            if piece.isEmpty {
                if character != "'" && character != "’" { pendingHyphen = true }
                continue
            }
            if pendingHyphen, !result.isEmpty { result += "-" }
            pendingHyphen = false
            result += piece
        }
        guard !result.isEmpty, result.count <= 200 else { return nil }
        return result
    }

    /// What `init?(making:)` makes of ASCII text, byte by byte (tags and file names are
    /// nearly always ASCII, and a character at a time costs a string each).
    private static func textMade(fromASCII text: String) -> String? {
        var result: [UInt8] = []
        result.reserveCapacity(text.utf8.count)
        var pendingHyphen = false
        for byte in text.utf8 {
            let kept: UInt8
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): kept = byte
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): kept = byte + 32
            case UInt8(ascii: "'"): continue
            default:
                pendingHyphen = true
                continue
            }
            if pendingHyphen, !result.isEmpty { result.append(UInt8(ascii: "-")) }
            pendingHyphen = false
            result.append(kept)
        }
        guard !result.isEmpty, result.count <= 200 else { return nil }
        return String(decoding: result, as: UTF8.self)
    }

    /// Lowercase letters of any script, digits and single hyphens between them: nothing
    /// that could make a path leave its folder.
    static func isValid(_ text: String) -> Bool {
        // ASCII, over the bytes in place: every cached article, tag and meal checks its
        // slug again on a rebuild; a string per character cost 6 % of one, and walking
        // the UTF-8 view a byte at a time still a fortieth.
        var contiguous = text
        let ascii = contiguous.withUTF8 { bytes -> Bool? in
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
            return !bytes.isEmpty && bytes.count <= 200 && bytes.first != UInt8(ascii: "-") && bytes.last != UInt8(ascii: "-")
                && bytes.allSatisfy { $0 == UInt8(ascii: "-") || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
        }
        if let ascii { return ascii }
        return !text.isEmpty && text.count <= 200 && !text.hasPrefix("-") && !text.hasSuffix("-")
            && text.allSatisfy { $0 == "-" || (($0.isLetter || $0.isNumber) && String($0).lowercased() == String($0) && !$0.isWhitespace) }
    }

    static func < (lhs: Self, rhs: Self) -> Bool { lhs.text < rhs.text }
    var description: String { text }
}

/// A name that groups articles, such as a meal or a tag, with the slug of its page.
struct Label: FrontMatterValue, Hashable, Sendable {
    var name: String
    var slug: Slug

    static var expectation: String { "a short name like Breakfast" }

    init(node: YAMLNode) throws(ValueProblem) {
        guard let scalar = node.scalar, !scalar.isNull else { throw .mismatch }
        if let label = Label.made.value(for: scalar.text, making: Label.init(text:)) {
            self = label
            return
        }
        guard !Summary.isBlank(scalar.text) else { throw .mismatch }
        throw .invalid("must have a letter or digit to make a page address from, found '\(scalar.text)'")
    }

    /// Made once per text: the same tags and meals come back in article after article, and
    /// each made its name and slug again.
    private static let made = TextMemo<Label?>(limit: 10_000)

    /// The label of `text`; nil when it has no name or no slug.
    private init?(text: String) {
        // As splitting on whitespace and joining with spaces would (over bytes for ASCII).
        let name = Summary.collapsingWhitespace(text)
        guard !name.isEmpty, let slug = Slug(making: name) else { return nil }
        self.name = name
        self.slug = slug
    }
}

/// A user name, written with or without its `@` and kept without it: pages put the `@`
/// before it (`@dreamer`), and `"@dreamer"` made `@@dreamer`.
struct Username: FrontMatterValue, Sendable {
    var text: String

    static var expectation: String { "a user name like dreamer" }

    init(node: YAMLNode) throws(ValueProblem) {
        guard let scalar = node.scalar, !scalar.isNull else { throw .mismatch }
        // Looked at as bytes: every article has a username, and walking its characters
        // (each one's Unicode properties) took 6,000 instructions an article.
        var text = scalar.text
        let at = text.utf8.first == UInt8(ascii: "@")
        let ascii = text.withUTF8 { bytes -> Bool? in
            guard bytes.count > (at ? 1 : 0) else { return nil }
            var ascii = true
            for byte in bytes[(at ? 1 : 0)...] {
                if byte <= 0x20 || byte == 0x7F || byte == UInt8(ascii: "@") { return nil }
                if byte >= 0x80 { ascii = false }
            }
            return ascii
        }
        guard let ascii, ascii || !text.unicodeScalars.contains(where: \.properties.isWhitespace) else {
            throw .invalid("must be one word like dreamer or @dreamer, found '\(scalar.text)'")
        }
        self.text = at ? String(text.dropFirst()) : text
    }
}

/// A grade as site.yaml lists it: a number (6) or a short name ("K").
struct GradeID: FrontMatterValue, Hashable, Sendable, CustomStringConvertible {
    var text: String

    static var expectation: String { "a grade like 6 or K" }

    init(_ text: String) { self.text = text }

    init(node: YAMLNode) throws(ValueProblem) {
        guard let scalar = node.scalar, !scalar.isNull, !scalar.text.isEmpty else { throw .mismatch }
        guard scalar.text.count <= 20, scalar.text.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }) else {
            throw .invalid("must be a grade like 6 or K (letters, digits and hyphens), found '\(scalar.text)'")
        }
        text = scalar.text
    }

    var description: String { text }
    /// The grade in a URL: `/homework/grade-k/`.
    var slug: String { text.lowercased() }
}

/// What kind of work an assignment is; it picks the icon.
enum AssignmentIcon: String, FrontMatterValue, CaseIterable, Sendable {
    case reading, writing, worksheet, project, quiz, test, study, lab, practice, other

    static var expectation: String { "one of " + allCases.map(\.rawValue).joined(separator: ", ") }

    init(node: YAMLNode) throws(ValueProblem) {
        guard let scalar = node.scalar else { throw .mismatch }
        guard let icon = AssignmentIcon(rawValue: scalar.text) else {
            var message = "must be one of \(AssignmentIcon.allCases.map(\.rawValue).joined(separator: ", ")), found '\(scalar.text)'"
            if let suggestion = Suggestion.closest(to: scalar.text, among: AssignmentIcon.allCases.map(\.rawValue)) {
                message += "; did you mean '\(suggestion)'?"
            }
            throw .invalid(message)
        }
        self = icon
    }
}

/// An IANA time zone name such as Asia/Hong_Kong.
struct TimeZoneName: FrontMatterValue, Sendable {
    var zone: TimeZone

    static var expectation: String { "an IANA time zone like Asia/Hong_Kong" }

    init(node: YAMLNode) throws(ValueProblem) {
        guard let scalar = node.scalar else { throw .mismatch }
        guard let zone = TimeZoneName.zone(named: scalar.text) else {
            var message = "must be an IANA time zone like Asia/Hong_Kong, found '\(scalar.text)'"
            if let suggestion = Suggestion.closest(to: scalar.text, among: TimeZone.knownTimeZoneIdentifiers) {
                message += "; did you mean '\(suggestion)'?"
            }
            throw .invalid(message)
        }
        self.zone = zone
    }

    static func zone(named name: String) -> TimeZone? {
        if name == "UTC" || name == "GMT" { return TimeZone(identifier: name) }
        // An Area/Location name the zone keeps as its identifier is one of the database's.
        // ICU also takes abbreviations ("PST"), which are no IANA names, and listing its
        // names took 8 million instructions, a fortieth of a small site's build: the list
        // is asked only for other names.
        if let area = name.split(separator: "/", maxSplits: 1).first, area.count < name.count, TimeZoneName.areas.contains(String(area)),
           let zone = TimeZone(identifier: name), zone.identifier == name {
            return zone
        }
        guard TimeZone.knownTimeZoneIdentifiers.contains(name) else { return nil }
        return TimeZone(identifier: name)
    }

    /// The regions of the time zone database's `Area/Location` names.
    private static let areas: Set<String> = ["Africa", "America", "Antarctica", "Arctic", "Asia", "Atlantic", "Australia", "Europe", "Indian", "Pacific", "Etc"]
}

/// An ISO 4217 currency code such as HKD.
struct CurrencyCode: FrontMatterValue, Hashable, Sendable, CustomStringConvertible {
    var code: String

    static var expectation: String { "an ISO 4217 currency code like HKD" }

    init(_ code: String) { self.code = code }

    init(node: YAMLNode) throws(ValueProblem) {
        guard let scalar = node.scalar else { throw .mismatch }
        guard scalar.text.utf8.count == 3, CurrencyCode.known.contains(scalar.text) else {
            var message = "must be an ISO 4217 currency code like HKD or USD, found '\(scalar.text)'"
            if CurrencyCode.known.contains(scalar.text.uppercased()) { message += "; did you mean '\(scalar.text.uppercased())'?" }
            throw .invalid(message)
        }
        code = scalar.text
    }

    /// Asked of Foundation once: it makes its list anew at each call, and every article
    /// with a price names a currency.
    static let known = Set(Locale.commonISOCurrencyCodes)

    var description: String { code }
}

/// A BCP 47 language tag such as en or zh-Hant-HK.
struct LanguageTag: FrontMatterValue, Hashable, Sendable, CustomStringConvertible {
    var text: String

    static var expectation: String { "a language tag like en or zh-HK" }

    init(_ text: String) { self.text = text }

    init(node: YAMLNode) throws(ValueProblem) {
        guard let scalar = node.scalar else { throw .mismatch }
        guard LanguageTag.isWellFormed(scalar.text) else {
            var message = "must be a language tag like en or zh-HK, found '\(scalar.text)'"
            // A locale name as systems write it (en_US, zh_HK.UTF-8) is a tag with an underscore.
            let tag = String(scalar.text.prefix { $0 != "." && $0 != "@" }).replacingOccurrences(of: "_", with: "-")
            if tag != scalar.text, LanguageTag.isWellFormed(tag) { message += "; did you mean '\(tag)'?" }
            throw .invalid(message)
        }
        text = scalar.text
    }

    private static func isWellFormed(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard let first = parts.first else { return false }
        return (2...3).contains(first.count) && first.allSatisfy({ $0.isASCII && $0.isLetter })
            && parts.dropFirst().allSatisfy({ (1...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } })
    }

    var description: String { text }
}

/// A plain email address, good enough to be a mailto: link.
struct EmailAddress: FrontMatterValue, Hashable, Sendable {
    var text: String

    static var expectation: String { "an email address like name@school.org" }

    init(node: YAMLNode) throws(ValueProblem) {
        guard let scalar = node.scalar else { throw .mismatch }
        let parts = scalar.text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[1].contains("."),
              !scalar.text.unicodeScalars.contains(where: { $0.value <= 0x20 || "<>\"'(),;:\\[]".unicodeScalars.contains($0) })
        else { throw .mismatch }
        text = scalar.text
    }
}

extension Int {
    /// The number with leading zeros to `width` digits, as dates and times are written:
    /// 7 → "07". (String(format:) goes through Foundation's formatter, which costs more
    /// than the rest of a date's work on pages that print thousands of them.)
    func zeroPadded(_ width: Int) -> String {
        // Written straight into a string short enough to need no allocation.
        var digits = 1
        var rest = magnitude / 10
        while rest > 0 { digits += 1; rest /= 10 }
        let count = Swift.max(width, digits)
        if self >= 0, count <= 15 {
            return String(unsafeUninitializedCapacity: count) { bytes in
                var value = self
                for offset in stride(from: count - 1, through: 0, by: -1) {
                    bytes[offset] = UInt8(ascii: "0") + UInt8(value % 10)
                    value /= 10
                }
                return count
            }
        }
        return (self < 0 ? "-" : "") + String(repeating: "0", count: Swift.max(0, width - digits)) + String(magnitude)
    }
}
