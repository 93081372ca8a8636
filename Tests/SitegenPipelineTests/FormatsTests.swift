import Foundation
import SitegenContent
@testable import SitegenPipeline
import SitegenSupport
import Synchronization
import Testing

@Suite("Formats")
struct FormatsTests {
    /// Dates made from each month's pattern read as ICU writes them, in languages that write
    /// their digits as ASCII and in ones that do not (which keep asking ICU).
    @Test func writesDatesAsICUDoes() {
        var generator = SystemRandomNumberGenerator()
        for language in ["en", "en-GB", "fr", "de", "es", "pt-BR", "it", "nl", "sv", "fi", "ru", "pl", "ja", "zh-Hant", "ko", "ar", "fa", "hi", "th", "he"] {
            let formats = Formats(language: LanguageTag(language))
            let style = Date.FormatStyle(date: .abbreviated, time: .omitted, locale: Locale(identifier: language), calendar: Calendar(identifier: .gregorian),
                                         timeZone: TimeZone(identifier: "UTC")!)
            var dates = (1...12).flatMap { month in [1, 9, 10, 28].map { CalendarDate(year: 2026, month: month, day: $0) } }
            dates += [CalendarDate(year: 1600, month: 1, day: 1), CalendarDate(year: 1599, month: 12, day: 31), CalendarDate(year: 1000, month: 6, day: 15),
                      CalendarDate(year: 9999, month: 12, day: 31), CalendarDate(year: 2024, month: 2, day: 29)]
            for _ in 0..<200 {
                let month = Int.random(in: 1...12, using: &generator)
                dates.append(CalendarDate(year: Int.random(in: 1580...2200, using: &generator), month: month, day: Int.random(in: 1...(month == 2 ? 28 : 30), using: &generator)))
            }
            for date in dates {
                let icu = Date(timeIntervalSince1970: TimeInterval(date.dayNumber * 86_400 + 43_200)).formatted(style)
                #expect(formats.date(date) == icu, "\(language) \(date)")
            }
        }
        // English dates are made from the patterns; the same every month and day, from ICU.
        let english = Date.FormatStyle(date: .abbreviated, time: .omitted, locale: Locale(identifier: "en"), calendar: Calendar(identifier: .gregorian),
                                       timeZone: TimeZone(identifier: "UTC")!)
        #expect(DatePattern.months { Date(timeIntervalSince1970: TimeInterval($0.dayNumber * 86_400 + 43_200)).formatted(english) }?.count == 12)
        #expect(DatePattern.months { _ in "Nov 22, 2033" } == nil)
        #expect(DatePattern("Nov 22, 2033")?.pieces == [.text("Nov "), .day, .text(", "), .year])
        #expect(DatePattern("22.11.2033 (22)") == nil)
    }

    /// Prices below a thousand written from their digits read as NumberFormatter writes them.
    @Test func writesPricesAsNumberFormatterDoes() throws {
        var generator = SystemRandomNumberGenerator()
        let whole = NumberFormatter(), fractional = NumberFormatter()
        for formatter in [whole, fractional] {
            formatter.locale = Locale(identifier: "en")
            formatter.numberStyle = .decimal
        }
        (whole.minimumFractionDigits, whole.maximumFractionDigits) = (0, 0)
        (fractional.minimumFractionDigits, fractional.maximumFractionDigits) = (2, 2)
        let english = try #require(PlainAmounts(whole: whole, fractional: fractional))
        #expect(english.text(of: Decimal(string: "109.5")!) == "109.50")
        #expect(english.text(of: Decimal(string: "1000")!) == nil)
        #expect(english.text(of: Decimal(string: "3.141")!) == nil)
        for language in ["en", "fr", "de", "ja", "zh-Hant", "ar", "hi", "de-CH"] {
            let formats = Formats(language: LanguageTag(language))
            for code in ["HKD", "USD", "EUR", "JPY", "KWD"] {
                let currency = CurrencyCode(code)
                let formatter = NumberFormatter()
                formatter.locale = Locale(identifier: language)
                formatter.numberStyle = .currency
                formatter.currencyCode = code
                var amounts = ["0", "1", "34", "999", "999.99", "1000", "1234.5", "0.5", "12.50", "40.05", "3.141", "7.0001", "100.00", "0.001"]
                for _ in 0..<100 { amounts.append("\(Int.random(in: 0...1200, using: &generator)).\(Int.random(in: 0...999, using: &generator))") }
                for text in amounts {
                    let amount = Decimal(string: text)!
                    let isWhole = amount == Decimal(Int(truncating: NSDecimalNumber(decimal: amount)))
                    let number = NumberFormatter()
                    number.locale = Locale(identifier: language)
                    number.numberStyle = .decimal
                    number.minimumFractionDigits = isWhole ? 0 : formatter.minimumFractionDigits
                    number.maximumFractionDigits = isWhole ? 0 : max(formatter.maximumFractionDigits, 2)
                    let expected = "\(formatter.currencySymbol ?? code) \(number.string(from: NSDecimalNumber(decimal: amount))!)"
                    #expect(formats.price(Price(amount: amount, currency: currency)) == expected, "\(language) \(code) \(text)")
                }
            }
        }
    }

    /// A process makes one `Formats` per language, shared by every build and thread that
    /// asks, and it writes as a new one does.
    @Test func formatsLearnedFromAnotherBuildWriteTheSameTexts() {
        let date = CalendarDate(year: 2026, month: 12, day: 4)
        let price = Price(amount: Decimal(string: "12.5")!, currency: CurrencyCode("EUR"))
        let asked = Formats(language: LanguageTag("fr-CA"))
        let texts = (asked.date(date), asked.price(price))
        let learned = Formats(language: LanguageTag("fr-CA"))
        learned.learn(asked.known)
        #expect(learned.known == asked.known)
        #expect((learned.date(date), learned.price(price)) == texts)
        // Facts of another language are not taken.
        let english = Formats(language: LanguageTag("en-AU"))
        english.learn(asked.known)
        #expect(english.known == Formats(language: LanguageTag("en-AU")).known)
    }

    /// A value made when first asked for is made once, whichever threads ask at once, and
    /// each gets it.
    @Test func makesAValueOnceForEveryThreadThatAsks() async {
        final class Count: Sendable { let made = Mutex(0) }
        let once = Once<[Int]>()
        let makes = Count()
        let values = await withTaskGroup(of: [Int].self) { group in
            for _ in 0..<8 {
                group.addTask {
                    once.value {
                        makes.made.withLock { $0 += 1 }
                        usleep(20_000)
                        return [1, 2, 3]
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(values == Array(repeating: [1, 2, 3], count: 8))
        #expect(makes.made.withLock { $0 } == 1)
    }

    @Test func formatsPricesWithTheCurrencySymbol() {
        let formats = Formats(language: LanguageTag("en"))
        #expect(formats.price(Price(amount: 34, currency: CurrencyCode("HKD"))) == "HK$ 34")
        #expect(formats.price(Price(amount: Decimal(string: "12.5")!, currency: CurrencyCode("USD"))) == "$ 12.50")
        #expect(formats.date(CalendarDate(year: 2016, month: 5, day: 20)) == "May 20, 2016")
        #expect(formats.weekdayDate(CalendarDate(year: 2026, month: 12, day: 4)) == "Friday, Dec 4")
    }

    @Test func namesGradesWithOrdinals() {
        let names = ["1", "2", "3", "4", "11", "12", "13", "21", "22", "23", "101", "111", "K", "k"].map { ViewContext(site: Site(node: nil, log: DiagnosticLog()), formats: Formats(language: LanguageTag("en"))).gradeName(GradeID($0)) }
        #expect(names == ["1st grade", "2nd grade", "3rd grade", "4th grade", "11th grade", "12th grade", "13th grade", "21st grade", "22nd grade", "23rd grade", "101st grade", "111th grade", "Kindergarten", "Kindergarten"])
    }

    @Test func writesCoordinatesAsPrintfWould() {
        var generator = SystemRandomNumberGenerator()
        var values: [Double] = [0, -0.0, 22.2819, -122.4194, 180, -90, 0.0000005, 1.0000005, 45.1234565, 1e-7, -1e-7, 179.9999999, 0.0000025, 2.5e-7, 7.5e-7, 1e-300, .leastNormalMagnitude, .leastNonzeroMagnitude, 123456789.0000005, 999_999_999.999_999, -999_999_999.999_999_5, 0.1, 0.5]
        for _ in 0..<5_000 {
            let decimals = Int.random(in: 0...9, using: &generator)
            let scale = pow(10.0, Double(decimals))
            values.append((Double.random(in: -180...180, using: &generator) * scale).rounded() / scale)
            values.append(Double.random(in: -180...180, using: &generator))
            values.append(Double(Int.random(in: -999_999...999_999, using: &generator)) / 1_000_000 + 0.000_000_5)
        }
        for value in values {
            #expect(MapLinks.coordinate(value) == String(format: "%.6f", value), "\(value)")
        }
    }
}
