import Foundation
import SitegenContent
@testable import SitegenIncremental
@testable import SitegenPipeline
import SitegenSupport
import SitegenYAML
import Testing

@Suite("Values in the cache")
struct BinaryCodingTests {
    private func number(_ text: String) -> Number? {
        try? Number(node: YAMLNode(.scalar(YAMLScalar(text, style: .plain)), at: SourceLocation(path: "x", line: 1, column: 1)))
    }

    /// Varints read back from anywhere in a slice of the cache, and a varint cut short or
    /// longer than 64 bits is corrupt.
    @Test func integersReadBackFromTheCacheExactly() throws {
        let values: [UInt64] = [0, 1, 0x7F, 0x80, 0x3FFF, 0x4000, 1 << 35, (1 << 56) - 1, 1 << 56, UInt64(Int64.max), UInt64.max, 300, 2]
        var writer = BinaryWriter()
        writer.zeros(3)
        for value in values { writer.unsigned(value) }
        writer.integer(-2)
        let read = try BinaryReader.reading(writer.bytes[3...]) { reader throws(BinaryReader.Corrupt) in
            (try values.map { _ throws(BinaryReader.Corrupt) in try reader.unsigned() }, try reader.integer(), reader.isAtEnd)
        }
        #expect(read.0 == values && read.1 == -2 && read.2)
        for corrupt in [[0x80, 0x80], [UInt8](repeating: 0xFF, count: 10) + [0x01], []] as [[UInt8]] {
            #expect(throws: BinaryReader.Corrupt.self) { try BinaryReader.reading(corrupt) { reader throws(BinaryReader.Corrupt) in try reader.unsigned() } }
        }
    }

    /// Prices go into the build cache as parts, or as text when the parts would not make the
    /// same Decimal; either way the cached build reads back the same value, which prints
    /// the same, and but for zeros (whose exponent no text keeps) the very same Decimal.
    @Test func decimalsReadBackFromTheCacheExactly() throws {
        let posix = Locale(identifier: "en_US_POSIX")
        let texts = ["12.50", "34", "-0.5", "0", "0.000", "-0", "22.302711", "99999999999999999999.99", "0.0000000000000000001", "1e3"]
        let values = texts.map { Decimal(string: $0, locale: posix)! } + [Decimal(12345) / Decimal(7), Decimal(Double.pi)]
        var writer = BinaryWriter()
        for value in values { writer.decimal(value) }
        let (decimals, atEnd) = try BinaryReader.reading(writer.bytes) { reader throws(BinaryReader.Corrupt) in
            (try values.map { _ throws(BinaryReader.Corrupt) in try reader.decimal() }, reader.isAtEnd)
        }
        for (read, value) in zip(decimals, values) {
            #expect(read == value && read.description == value.description, "\(value)")
            if !value.isZero {
                #expect(withUnsafeBytes(of: read) { Array($0) } == withUnsafeBytes(of: value) { Array($0) }, "\(value)")
            }
        }
        #expect(atEnd)
        var corrupt = BinaryWriter()
        corrupt.bool(true)
        corrupt.bool(false)
        corrupt.integer(500)
        corrupt.unsigned(1)
        #expect(throws: BinaryReader.Corrupt.self) { try BinaryReader.reading(corrupt.bytes) { reader throws(BinaryReader.Corrupt) in try reader.decimal() } }
    }
}

@Suite("Formats learned by an earlier build")
struct LearnedFormatTests {
    /// What a process learned from ICU reads back from the cache's bytes as it was, and a
    /// process that learns it writes dates and prices as one that asked ICU.
    @Test func learnsWhatAnEarlierProcessAskedICUOfTheLanguage() throws {
        let date = CalendarDate(year: 2026, month: 12, day: 4)
        let prices = [Price(amount: 34, currency: CurrencyCode("HKD")), Price(amount: Decimal(string: "1234.5")!, currency: CurrencyCode("HKD")),
                      Price(amount: Decimal(string: "0.125")!, currency: CurrencyCode("KWD")), Price(amount: 1200, currency: CurrencyCode("JPY"))]
        for language in ["en", "de-CH", "ar-EG", "zh-HK"] {
            let asked = Formats(language: LanguageTag(language))
            #expect(asked.known.months == nil && asked.known.currencies.isEmpty)
            let texts = [asked.date(date)] + prices.map(asked.price)
            var writer = BinaryWriter()
            writer.formatFacts(asked.known)
            let facts = try BinaryReader.reading(writer.bytes) { reader throws(BinaryReader.Corrupt) in try reader.formatFacts() }
            #expect(facts == asked.known, "\(language)")
            #expect(facts.months != nil && facts.currencies.count == 3, "\(language)")

            let learned = Formats(language: LanguageTag(language))
            learned.learn(facts)
            #expect(learned.known == facts)
            #expect([learned.date(date)] + prices.map(learned.price) == texts, "\(language)")
        }
    }

    /// Learned facts are what the formats write by (a month's pattern as learned, not as ICU
    /// says it), those of another language are not taken, and facts that are not as
    /// `DatePattern` makes them do not read back.
    @Test func writesByLearnedFactsOfItsOwnLanguageOnly() throws {
        var facts = FormatFacts(language: LanguageTag("en"))
        facts.months = .some((1...12).map { _ in DatePattern(pieces: [.text("Smarch "), .day, .text(" in "), .year]) })
        facts.currencies[CurrencyCode("HKD")] = CurrencyFacts(symbol: "HKD", fractionDigits: 0...2, plain: PlainAmounts(separator: ",", minimumFractionDigits: 0, maximumFractionDigits: 2))
        let formats = Formats(language: LanguageTag("en"))
        formats.learn(facts)
        #expect(formats.date(CalendarDate(year: 2026, month: 12, day: 4)) == "Smarch 4 in 2026")
        #expect(formats.price(Price(amount: Decimal(string: "3.5")!, currency: CurrencyCode("HKD"))) == "HKD 3,5")
        let french = Formats(language: LanguageTag("fr"))
        french.learn(facts)
        #expect(french.date(CalendarDate(year: 2026, month: 12, day: 4)) == Formats(language: LanguageTag("fr")).date(CalendarDate(year: 2026, month: 12, day: 4)))

        for months in [Array(facts.months!!.prefix(11)), facts.months!!.map { _ in DatePattern(pieces: [.text("Smarch "), .year]) }] {
            var wrong = facts
            wrong.months = .some(months)
            var writer = BinaryWriter()
            writer.formatFacts(wrong)
            #expect(throws: BinaryReader.Corrupt.self) { try BinaryReader.reading(writer.bytes) { reader throws(BinaryReader.Corrupt) in try reader.formatFacts() } }
        }
    }
}
