import Foundation
import SitegenContent
import SitegenLocking
import SitegenSupport

/// How dates and prices read on pages, in the site's language.
public final class Formats: Sendable {
    public let locale: Locale
    /// ICU's styles, made when a text is first asked of ICU (a rebuild that knows the
    /// language's `FormatFacts` may ask none).
    private let styles = Once<Styles>()
    /// ICU is slow to ask: every text it makes is made once and remembered. A site has a
    /// few thousand distinct dates and prices however many pages show them.
    private let cache = Locked<[CacheKey: String]>([:])
    /// What ICU told of the language's dates and currencies: made when first needed, or
    /// known from the build cache (`learn`).
    private let facts: Locked<FormatFacts>
    /// Making a NumberFormatter costs more than formatting hundreds of numbers with it
    /// (ICU builds its pattern tables): made once per currency, when an amount is not
    /// plain digits (`PlainAmounts`).
    private let formatters = Locked<[CurrencyCode: (whole: NumberFormatter, fractional: NumberFormatter)]>([:])

    private struct Styles {
        public let date: Date.FormatStyle
        public let weekday: Date.FormatStyle
        public let weekdayName: Date.FormatStyle
        public let time: Date.FormatStyle
    }

    private enum CacheKey: Hashable {
        case date(CalendarDate)
        case weekday(CalendarDate)
        case weekdayName(CalendarDate)
        case time(TimeOfDay)
        case price(Price)
    }

    /// The formats of `language`. One build's pages share one: ICU is asked once for each
    /// text (the month patterns and currency formatters of an edited article's card, then
    /// of its page), and a reuse hands the next build what it learned (`learn`).
    public init(language: LanguageTag) {
        locale = Locale(identifier: language.text)
        facts = Locked(FormatFacts(language: language))
    }

    /// What this build knows of the language from ICU, for the next one.
    public var known: FormatFacts { facts.withLock { $0 } }

    /// Takes what an earlier process learned of the language from ICU (the build cache
    /// keeps it: the same binary, the same ICU), so that a rebuild after an edit asks ICU
    /// nothing. Facts of another language are ignored.
    public func learn(_ earlier: FormatFacts) {
        facts.withLock { facts in
            guard earlier.language == facts.language else { return }
            if facts.months == nil { facts.months = earlier.months }
            facts.currencies.merge(earlier.currencies) { mine, _ in mine }
        }
    }

    private var icuStyles: Styles {
        styles.value {
            let utc = TimeZone(identifier: "UTC")!
            return Styles(date: Date.FormatStyle(date: .abbreviated, time: .omitted, locale: locale, calendar: Calendar(identifier: .gregorian), timeZone: utc),
                          weekday: Date.FormatStyle(locale: locale, calendar: Calendar(identifier: .gregorian), timeZone: utc).weekday(.wide).month(.abbreviated).day(),
                          weekdayName: Date.FormatStyle(locale: locale, calendar: Calendar(identifier: .gregorian), timeZone: utc).weekday(.wide),
                          time: Date.FormatStyle(date: .omitted, time: .shortened, locale: locale, calendar: Calendar(identifier: .gregorian), timeZone: utc))
        }
    }

    private func remembered(_ key: CacheKey, _ make: () -> String) -> String {
        if let known = cache.withLock({ $0[key] }) { return known }
        let text = make()
        cache.withLock { $0[key] = text }
        return text
    }

    /// `date` as `style` writes it (noon UTC of that day, written in UTC).
    private static func formatted(_ date: CalendarDate, style: Date.FormatStyle) -> String {
        Date(timeIntervalSince1970: TimeInterval(date.dayNumber * 86_400 + 43_200)).formatted(style)
    }

    public func date(_ date: CalendarDate) -> String {
        let patterns = facts.withLock { facts in
            if facts.months == nil { facts.months = .some(DatePattern.months { Formats.formatted($0, style: icuStyles.date) }) }
            return facts.months!
        }
        if let patterns, let text = DatePattern.text(of: date, in: patterns) { return text }
        return remembered(.date(date)) { Formats.formatted(date, style: icuStyles.date) }
    }

    public func weekdayDate(_ date: CalendarDate) -> String {
        remembered(.weekday(date)) { Formats.formatted(date, style: icuStyles.weekday) }
    }

    /// "3:00 PM" in the site's language.
    public func time(_ time: TimeOfDay) -> String {
        remembered(.time(time)) { Date(timeIntervalSince1970: TimeInterval(time.secondsIntoDay)).formatted(icuStyles.time) }
    }

    /// "Monday" in the site's language.
    public func weekday(_ date: CalendarDate) -> String {
        remembered(.weekdayName(date)) { Formats.formatted(date, style: icuStyles.weekdayName) }
    }

    /// `HK$ 34`, `US$ 12.50`: the currency's symbol in the site's language, a space, the amount.
    public func price(_ price: Price) -> String {
        remembered(.price(price)) {
            let currency = facts.withLock { facts in
                if let known = facts.currencies[price.currency] { return known }
                let (made, madeFormatters) = CurrencyFacts.asked(price.currency, locale: locale)
                formatters.withLock { $0[price.currency] = madeFormatters }
                facts.currencies[price.currency] = made
                return made
            }
            if let plain = currency.plain, let number = plain.text(of: price.amount) { return "\(currency.symbol) \(number)" }
            let isWhole = price.amount == Decimal(Int(truncating: NSDecimalNumber(decimal: price.amount)))
            let number = formatters.withLock { formatters in
                let made = formatters[price.currency] ?? CurrencyFacts.formatters(fractionDigits: currency.fractionDigits, locale: locale)
                formatters[price.currency] = made
                return (isWhole ? made.whole : made.fractional).string(from: NSDecimalNumber(decimal: price.amount))
            }
            return "\(currency.symbol) \(number ?? "\(price.amount)")"
        }
    }
}

/// What ICU says of a language's dates and currencies that the build cache keeps for the
/// next process (`Formats.learn`).
public struct FormatFacts: Sendable, Equatable {
    public var language: LanguageTag
    /// nil until asked; then the month patterns, or nil when the language does not write
    /// its dates that way.
    public var months: [DatePattern]??
    public var currencies: [CurrencyCode: CurrencyFacts] = [:]

    public init(language: LanguageTag, months: [DatePattern]?? = nil, currencies: [CurrencyCode: CurrencyFacts] = [:]) {
        self.language = language
        self.months = months
        self.currencies = currencies
    }
}

/// A currency as a language writes its amounts: its symbol, the fraction digits the
/// amounts have, and whether amounts below a thousand are plain digits (`PlainAmounts`).
public struct CurrencyFacts: Sendable, Equatable {
    public var symbol: String
    public var fractionDigits: ClosedRange<Int>
    public var plain: PlainAmounts?

    public init(symbol: String, fractionDigits: ClosedRange<Int>, plain: PlainAmounts?) {
        self.symbol = symbol
        self.fractionDigits = fractionDigits
        self.plain = plain
    }

    /// The currency's facts as ICU tells them, with the formatters that told them (kept for
    /// the amounts that are not plain digits: ICU builds its tables again for each one).
    public static func asked(_ currency: CurrencyCode, locale: Locale) -> (facts: CurrencyFacts, formatters: (whole: NumberFormatter, fractional: NumberFormatter)) {
        let formatter = NumberFormatter()
        formatter.locale = locale
        formatter.numberStyle = .currency
        formatter.currencyCode = currency.code
        let digits = formatter.minimumFractionDigits...max(formatter.maximumFractionDigits, 2, formatter.minimumFractionDigits)
        let made = formatters(fractionDigits: digits, locale: locale)
        let facts = CurrencyFacts(symbol: formatter.currencySymbol ?? currency.code, fractionDigits: digits,
                                  plain: PlainAmounts(whole: made.whole, fractional: made.fractional))
        return (facts, made)
    }

    /// The language's formatters of whole amounts, and of amounts with `fractionDigits`.
    public static func formatters(fractionDigits: ClosedRange<Int>, locale: Locale) -> (whole: NumberFormatter, fractional: NumberFormatter) {
        let whole = NumberFormatter()
        whole.locale = locale
        whole.numberStyle = .decimal
        whole.minimumFractionDigits = 0
        whole.maximumFractionDigits = 0
        let fractional = NumberFormatter()
        fractional.locale = locale
        fractional.numberStyle = .decimal
        fractional.minimumFractionDigits = fractionDigits.lowerBound
        fractional.maximumFractionDigits = fractionDigits.upperBound
        return (whole, fractional)
    }
}

/// How a language writes the dates of one month: its text around the day and the year,
/// which are written as their digits.
public struct DatePattern: Sendable, Equatable {
    public enum Piece: Sendable, Equatable {
        case text(String)
        case day
        case year
    }

    public var pieces: [Piece]

    public init(pieces: [Piece]) {
        self.pieces = pieces
    }

    /// The day and year of a probe: numbers no month's name holds, two digits each part.
    private static let probe = (year: 2033, day: 22)

    /// The years the patterns are for: ICU's Gregorian calendar counts the days before 1582
    /// as Julian ones.
    public static let years = 1600...9999

    /// The pattern of each month, made from the date ICU writes for the 22nd of 2033 and
    /// checked against the dates it writes for other days and years (one and two digits,
    /// the first and last of `years`); nil when any differs: digits of another script, a
    /// padded day, a weekday or anything else that is not the same text around the day
    /// and year.
    public static func months(_ formatted: (CalendarDate) -> String) -> [DatePattern]? {
        var months: [DatePattern] = []
        for month in 1...12 {
            let written = formatted(CalendarDate(year: probe.year, month: month, day: probe.day))
            guard let pattern = DatePattern(written) else { return nil }
            for (year, day) in [(1987, 5), (2001, month == 2 ? 28 : 30), (years.lowerBound, 1), (years.upperBound, 9)] {
                guard pattern.text(day: day, year: year) == formatted(CalendarDate(year: year, month: month, day: day)) else { return nil }
            }
            months.append(pattern)
        }
        return months
    }

    /// `date` as `months` write it; nil for a year outside `years`.
    public static func text(of date: CalendarDate, in months: [DatePattern]) -> String? {
        guard years.contains(date.year), (1...12).contains(date.month), months.count == 12 else { return nil }
        return months[date.month - 1].text(day: date.day, year: date.year)
    }

    /// The pieces of `written`, a probe's date: nil unless its year and its day each appear
    /// once.
    public init?(_ written: String) {
        let aroundYear = written.components(separatedBy: String(DatePattern.probe.year))
        guard aroundYear.count == 2 else { return nil }
        var pieces: [Piece] = []
        for (place, part) in aroundYear.enumerated() {
            if place == 1 { pieces.append(.year) }
            let aroundDay = part.components(separatedBy: String(DatePattern.probe.day))
            guard aroundDay.count <= 2 else { return nil }
            for (index, text) in aroundDay.enumerated() {
                if index == 1 { pieces.append(.day) }
                if !text.isEmpty { pieces.append(.text(text)) }
            }
        }
        guard pieces.filter({ $0 == .day }).count == 1 else { return nil }
        self.pieces = pieces
    }

    public func text(day: Int, year: Int) -> String {
        var text = ""
        text.reserveCapacity(24)
        for piece in pieces {
            switch piece {
            case .text(let part): text += part
            case .day: text += String(day)
            case .year: text += String(year)
            }
        }
        return text
    }
}

/// Amounts below a thousand as a language's number formatters write them, when that is
/// their digits, the decimal separator and the fraction's digits (checked against the
/// formatters on probes), without asking NumberFormatter of each amount.
public struct PlainAmounts: Sendable, Equatable {
    public var separator: String
    public var minimumFractionDigits: Int
    public var maximumFractionDigits: Int

    public init(separator: String, minimumFractionDigits: Int, maximumFractionDigits: Int) {
        self.separator = separator
        self.minimumFractionDigits = minimumFractionDigits
        self.maximumFractionDigits = maximumFractionDigits
    }

    public init?(whole: NumberFormatter, fractional: NumberFormatter) {
        separator = fractional.decimalSeparator ?? "."
        minimumFractionDigits = fractional.minimumFractionDigits
        maximumFractionDigits = fractional.maximumFractionDigits
        for probe in ["0", "7", "34", "999", "0.5", "3.25", "12.5", "109.9", "999.99", "40.05"] {
            let amount = Decimal(string: probe)!
            guard let plain = text(of: amount) else { continue }
            let isWhole = !probe.contains(".")
            guard (isWhole ? whole : fractional).string(from: NSDecimalNumber(decimal: amount)) == plain else { return nil }
        }
    }

    /// `amount` as the formatters write it; nil unless it is at least zero and below a
    /// thousand with no more fraction digits than they write. Read from its significand and
    /// exponent, not its description.
    public func text(of amount: Decimal) -> String? {
        let exponent = amount.exponent
        guard !amount.isSignMinus, (-9...2).contains(exponent), amount < 1000 else { return nil }
        // Below a thousand with at most nine fraction digits: the significand is below 10^12.
        let significand = NSDecimalNumber(decimal: amount.significand).int64Value
        var scale: Int64 = 1
        for _ in 0..<abs(exponent) { scale *= 10 }
        let integer = exponent >= 0 ? significand * scale : significand / scale
        var (fraction, digits) = exponent >= 0 ? (Int64(0), 0) : (significand % scale, -exponent)
        while digits > 0, fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        guard integer < 1000, digits <= maximumFractionDigits else { return nil }
        var text = String(integer)
        guard digits > 0 else { return text }
        let written = String(fraction)
        text += separator + String(repeating: "0", count: digits - written.count) + written + String(repeating: "0", count: max(minimumFractionDigits - digits, 0))
        return text
    }
}
