import Foundation
import SitegenContent
@testable import SitegenCore
@testable import SitegenFiles
import SitegenPlatform
import SitegenSupport
import SitegenYAML
import Synchronization
import Testing

private func scalar(_ text: String, quoted: Bool = false) -> YAMLNode {
    YAMLNode(.scalar(YAMLScalar(text, style: quoted ? .quoted : .plain)), at: SourceLocation(path: "x", line: 1, column: 1))
}

@Suite("Values read from front matter")
struct ValueTests {
    @Test func readsRealCalendarDaysOnly() throws {
        #expect(try CalendarDate(node: scalar("2024-02-29")) == CalendarDate(year: 2024, month: 2, day: 29))
        #expect(throws: ValueProblem.self) { try CalendarDate(node: scalar("2026-02-29")) }
        #expect(throws: ValueProblem.self) { try CalendarDate(node: scalar("2026-13-01")) }
        #expect(throws: ValueProblem.self) { try CalendarDate(node: scalar("2026-1-01")) }
        #expect(throws: ValueProblem.self) { try CalendarDate(node: scalar("tomorrow")) }
    }

    @Test func countsDaysSinceTheEpochBothWays() {
        for date in [CalendarDate(year: 1970, month: 1, day: 1), CalendarDate(year: 2000, month: 2, day: 29), CalendarDate(year: 2026, month: 11, day: 29), CalendarDate(year: 1969, month: 12, day: 31)] {
            #expect(CalendarDate(dayNumber: date.dayNumber) == date)
        }
        #expect(CalendarDate(year: 1970, month: 1, day: 2).dayNumber == 1)
        #expect(CalendarDate(year: 2026, month: 11, day: 29).dayNumber == 20_786)
    }

    @Test func readsDatesWithTimesAndOffsets() throws {
        let plain = try DateTimeValue(node: scalar("2026-12-01"))
        #expect(plain.time == nil && plain.offsetSeconds == nil)
        let local = try DateTimeValue(node: scalar("2026-12-01T08:00"))
        #expect(local.time == TimeOfDay(hour: 8, minute: 0))
        let offset = try DateTimeValue(node: scalar("2026-12-01 08:00:30+08:00"))
        #expect(offset.offsetSeconds == 8 * 3600 && offset.time?.second == 30)
        #expect(try DateTimeValue(node: scalar("2026-12-01T08:00Z")).offsetSeconds == 0)
        #expect(throws: ValueProblem.self) { try DateTimeValue(node: scalar("2026-12-01T25:00")) }
        let hongKong = TimeZone(identifier: "Asia/Hong_Kong")!
        #expect(local.instant(in: hongKong) == CalendarDate(year: 2026, month: 12, day: 1).dayNumber * 86_400)
        #expect(offset.instant(in: TimeZone(identifier: "UTC")!) == CalendarDate(year: 2026, month: 12, day: 1).dayNumber * 86_400 + 30)
    }

    @Test func readsIANATimeZoneNamesOnly() {
        // Every name Foundation lists is taken, as before names were checked without the list.
        for name in TimeZone.knownTimeZoneIdentifiers {
            #expect(TimeZoneName.zone(named: name)?.identifier == name, "\(name)")
        }
        for name in ["UTC", "GMT", "Asia/Hong_Kong", "America/Argentina/Buenos_Aires", "Etc/GMT-8"] {
            #expect(TimeZoneName.zone(named: name) != nil, "\(name)")
        }
        for name in ["PST", "HKT", "GMT+8", "asia/hong_kong", "Asia/Hongkong_City", "Asia/", "/Asia/Hong_Kong", "Moon/Base", ""] {
            #expect(TimeZoneName.zone(named: name) == nil, "\(name)")
        }
    }

    @Test func acceptsOnlyHTTPAndHTTPSURLs() {
        #expect(WebURL("https://example.org/a?b#c") != nil)
        #expect(WebURL("HTTP://EXAMPLE.ORG") != nil)
        for bad in ["javascript:alert(1)", "data:text/html,x", "//example.org", "https://", "https://exa mple.org", "ftp://example.org", "/relative", "https://\"><script>"] {
            #expect(WebURL(bad) == nil, "\(bad)")
        }
    }

    @Test func checksURLsAsTheRuleOnCharactersWould() {
        // The rule as written on characters; the reader checks the bytes.
        func reference(_ text: String) -> Bool {
            let lowered = text.lowercased()
            let schemeLength: Int
            if lowered.hasPrefix("https://") { schemeLength = 8 } else if lowered.hasPrefix("http://") { schemeLength = 7 } else { return false }
            guard !text.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F || $0 == "\\" || $0 == "<" || $0 == ">" || $0 == "\"" }) else { return false }
            let host = text.dropFirst(schemeLength).prefix { $0 != "/" && $0 != "?" && $0 != "#" }
            return !host.isEmpty && !host.hasPrefix("@") && !host.hasPrefix(":")
        }
        var generator = SystemRandomNumberGenerator()
        let starts = ["https://", "http://", "HTTPS://", "hTtP://", "https:/", "ftp://", "", "https://@", "https://:"]
        let pieces = ["example.org", "/", "?", "#", "a", "é", "點心", " ", "\t", "\u{7F}", "\\", "<", ">", "\"", "@", ":", "%20", "\u{1}", "-"]
        for _ in 0..<5_000 {
            let text = starts.randomElement(using: &generator)! + (0..<Int.random(in: 0...6, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            #expect((WebURL(text) != nil) == reference(text), "\(text)")
        }
    }

    @Test func namesLabelsAsSplittingOnWhitespaceWould() throws {
        var generator = SystemRandomNumberGenerator()
        let pieces = ["Tea", "milk", " ", "  ", "\t", "\n", "é", "\u{A0}", "\u{3000}", "-", "&"]
        for _ in 0..<3_000 {
            let text = (0..<Int.random(in: 1...6, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            let expected = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            let label = try? Label(node: scalar(text, quoted: true))
            #expect(label?.name == (expected.isEmpty || Slug(making: expected) == nil ? nil : expected), "\(Array(text.unicodeScalars))")
        }
    }

    @Test func readsALinksSchemeAsABrowserDoes() {
        #expect(LinkDestination.scheme(of: "HTTPS://example.org") == "https")
        #expect(LinkDestination.scheme(of: " \u{1}java\tscr\nipt:alert(1)") == "javascript")
        #expect(LinkDestination.scheme(of: "web+cal.x-y:1") == "web+cal.x-y")
        for path in ["menu/", "/", "#top", "?q=a:b", "//example.org/a:b", "a/b:c", "%6Aavascript:x", "1tel:1", ":x", "", "點心:x"] {
            #expect(LinkDestination.scheme(of: path) == nil, "\(path)")
        }
        for allowed in ["https://example.org", "http://x", "mailto:a@b.c", "TEL:+852", "sms:1", "geo:22.3,114.1", "webcal://x/a.ics", "menu/", "#a"] {
            #expect(LinkDestination.refusedScheme(of: allowed) == nil, "\(allowed)")
        }
        #expect(LinkDestination.refusedScheme(of: "javascript:alert(1)") == "javascript")
        #expect(LinkDestination.refusedScheme(of: "data:image/png;base64,AA") == "data")
        #expect(LinkDestination.refusedScheme(of: "file:///etc/passwd") == "file")
        #expect(LinkDestination.refusedScheme(of: "ftp://example.org") == "ftp")
    }

    @Test func refusesTheSchemesTheStringRuleWould() {
        // The check reads a scheme into a word; the rule as written makes a string of it.
        var generator = SystemRandomNumberGenerator()
        let pieces = ["http", "s", "HTTPS", "mailto", "tel", "webcal", "javascript", "j", "1", "+", ".", "-", ":", "//", "/", "#", " ", "\t", "\n", "\u{1}", "é", "x"]
        for _ in 0..<5_000 {
            let text = (0..<Int.random(in: 0...5, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            let expected = LinkDestination.scheme(of: text).flatMap { LinkDestination.schemes.contains($0) ? nil : $0 }
            #expect(LinkDestination.refusedScheme(of: text) == expected, "\(Array(text.unicodeScalars))")
        }
    }

    @Test func tellsLocalImagesFromRemoteOnes() {
        #expect(ImageSource("toast.jpg") == .local("toast.jpg"))
        #expect(ImageSource("/images/a:b.jpg") == .local("/images/a:b.jpg"))
        #expect(ImageSource("https://example.org/a.jpg") == .remote(WebURL("https://example.org/a.jpg")!))
        #expect(ImageSource("javascript:alert(1)") == nil)
    }

    @Test func makesSlugsFromFileNames() {
        #expect(Slug(making: "Lovely Breakfast")?.text == "lovely-breakfast")
        #expect(Slug(making: "Crème Brûlée & Café")?.text == "creme-brulee-cafe")
        #expect(Slug(making: "Mak's Noodle")?.text == "maks-noodle")
        #expect(Slug(making: "../..") == nil)
        #expect(Slug(making: "奶茶")?.text == "奶茶")
        #expect(Slug(making: "Dim Sum 點心")?.text == "dim-sum-點心")
        #expect(Slug(making: "がっこう")?.text == "がっこう")
        // Texts that are not ASCII are made once and remembered: asked again, the same answer.
        for _ in 0..<2 {
            #expect(Slug(making: "Crème Brûlée & Café")?.text == "creme-brulee-cafe")
            #expect(Slug(making: "！？・") == nil)
        }
        #expect(Slug(validating: "奶茶") != nil)
        #expect(Slug(validating: "a/b") == nil)
        #expect(Slug(validating: "a.b") == nil)
        #expect(Slug(validating: "a-b-1") != nil)
        #expect(Slug(validating: "../x") == nil)
        #expect(Slug(validating: "A") == nil)
        for bad in ["", "-a", "a-", "a b", "a_b", String(repeating: "a", count: 201)] {
            #expect(Slug(validating: bad) == nil, "\(bad)")
        }
        #expect(Slug(validating: "é") != nil)
        #expect(Slug(validating: String(repeating: "a", count: 200)) != nil)
    }

    @Test func derivesTheDefaultSlugFromTheFileName() {
        func file(_ path: String) -> ContentFile { ContentFile(path: "Content/" + path, contentPath: path, frontMatter: nil, body: [], bodyFirstLine: 1) }
        #expect(file("articles/2016-05-20-lovely-breakfast.md").defaultSlug?.text == "lovely-breakfast")
        #expect(file("articles/2016-05-20-點心.md").defaultSlug?.text == "點心")
        #expect(file("articles/2016-05-20-x.md").defaultSlug?.text == "x")
        #expect(file("articles/2016-05-20.md").defaultSlug?.text == "2016-05-20")
        #expect(file("articles/2016-0520-toast.md").defaultSlug?.text == "2016-0520-toast")
        // A mark after the hyphen makes one character of them: no hyphen ends the date.
        #expect(file("articles/2016-05-20-\u{301}toast.md").defaultSlug?.text == "2016-05-20-toast")
        #expect(file("articles/lovely-breakfast/index.md").defaultSlug?.text == "lovely-breakfast")
        #expect(file("pages/About Us.md").defaultSlug?.text == "about-us")
        #expect(file("index.md").fileStem == "index")
        #expect(file("articles/2016/05/toast/index.md").fileStem == "toast")
        #expect(file("articles/Café Crème.md").defaultSlug?.text == "cafe-creme")
        #expect(file("articles/2016-05-20-.md").defaultSlug?.text == "2016-05-20")
        #expect(file("articles/2016-05-20-x").fileStem == "2016-05-20-x")
        #expect(file("articles/notes.md.md").fileStem == "notes.md")
        #expect(file("articles/.md").defaultSlug == nil)
    }

    @Test func namesGradesWithOrdinals() {
        let names = ["1", "2", "3", "4", "11", "12", "13", "21", "22", "23", "101", "111", "K", "k"].map { GradeNames.name(of: GradeID($0)) }
        #expect(names == ["1st grade", "2nd grade", "3rd grade", "4th grade", "11th grade", "12th grade", "13th grade", "21st grade", "22nd grade", "23rd grade", "101st grade", "111th grade", "Kindergarten", "Kindergarten"])
    }

    @Test func cutsSummariesOnAWord() {
        let text = String(repeating: "word ", count: 60)
        let summary = Summary.make(from: text)
        #expect(summary.count <= 201)
        #expect(summary.hasSuffix("word…"))
        #expect(Summary.make(from: "Short and\nsweet.") == "Short and sweet.")
    }

    /// The summary `Summary.make` must give, found by counting every character.
    private func reference(_ text: String, limit: Int) -> String {
        let collapsed = Summary.collapsingWhitespace(text)
        guard collapsed.count > limit else { return collapsed }
        let cut = collapsed.prefix(limit)
        let end = cut.lastIndex(of: " ") ?? cut.endIndex
        return cut[..<end].trimmingCharacters(in: CharacterSet(charactersIn: " ,;:.–—-")) + "…"
    }

    @Test func cutsAsCountingEveryCharacterWould() {
        var generator = SystemRandomNumberGenerator()
        let pieces = ["a", "word", "\u{E9}", "e\u{301}", "\u{1F1ED}\u{1F1F0}", "\u{8336}", " ", " ", ",", "\u{2014}", "\n", "\t", " \u{301}", "\u{600}", "x"]
        for _ in 0..<2_000 {
            let text = (0..<Int.random(in: 0..<120, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            for limit in [5, 40, 200] {
                #expect(Summary.make(from: text, limit: limit) == reference(text, limit: limit))
            }
        }
        // ASCII text takes a shorter way.
        let ascii = ["a", "word", "Tea", " ", "  ", ",", ".", ";", ":", "-", "--", "\n", "\t", "x.y", "!"]
        for _ in 0..<2_000 {
            let text = (0..<Int.random(in: 0..<120, using: &generator)).map { _ in ascii.randomElement(using: &generator)! }.joined()
            for limit in [1, 5, 40, 200] {
                #expect(Summary.make(from: text, limit: limit) == reference(text, limit: limit), "\(text)")
            }
        }
    }

    /// Long paragraphs of any script are cut as counting every character would, whatever
    /// the whitespace or the marks at the cut.
    @Test func cutsLongParagraphsOfAnyScriptAsCountingEveryCharacterWould() {
        var generator = SystemRandomNumberGenerator()
        let latin = ["a", "word", "Tea", "toast", " ", " ", " ", ",", ".", "-", "\n", "\t", "\u{2019}", "\u{201C}", "\u{2014}", "\u{E9}", "e\u{301}"]
        let others = ["\u{8336}", "\u{9EDE}\u{5FC3}", "\u{1F469}\u{200D}\u{1F373}", "\u{1F1ED}\u{1F1F0}", " \u{301}", "\u{3000}", "\u{A0}", "\u{600}", "\u{200D}",
                      "\u{915}\u{94D}\u{937}", "\u{2028}", "a\u{308}", "\u{0}", "\u{10FFFF}"]
        for round in 0..<3_000 {
            // From nearly all Latin to nearly all other scripts.
            let share = round % 4
            let text = (0..<Int.random(in: 20..<260, using: &generator)).map { _ in
                (Int.random(in: 0..<4, using: &generator) < share ? others : latin).randomElement(using: &generator)!
            }.joined()
            for limit in [5, 40, 200] {
                #expect(Summary.make(from: text, limit: limit) == reference(text, limit: limit), "\(Array(text.unicodeScalars))")
            }
        }
    }

    /// The whitespace `collapsingWhitespace` knows by value is Unicode's, scalar for scalar.
    @Test func knowsEveryWhitespaceScalar() {
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            #expect((Summary.whitespace(value) != nil) == scalar.properties.isWhitespace, "U+\(String(value, radix: 16))")
        }
    }

    @Test func collapsesWhitespaceAsSplittingCharactersWould() {
        var generator = SystemRandomNumberGenerator()
        let pieces = ["a", "word", "é", "e\u{301}", "字", "👩‍🍳", " ", "  ", "\t", "\r\n", "\n", "\u{A0}", "\u{2003}", " \u{301}", "\u{200D}", ",", "…",
                      "\u{85}", "\u{1680}", "\u{2000}", "\u{200A}", "\u{200B}", "\u{2028}", "\u{2029}", "\u{202F}", "\u{205F}", "\u{3000}", "\u{3001}",
                      "\u{2028}\u{301}", "\u{3000}\u{301}", "\u{3000}\u{903}", "\u{85}\u{301}", "\u{1F1ED}\u{1F1F0}", "\u{10FFFF}", "\u{FEFF}"]
        for _ in 0..<2_000 {
            let text = (0..<Int.random(in: 0...12, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            let expected = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            #expect(Summary.collapsingWhitespace(text) == expected, "\(Array(text.unicodeScalars))")
        }
        // ASCII text takes a shorter way.
        let ascii = ["a", "word", " ", "  ", "\t", "\r\n", "\n", "\u{B}", "\u{C}", "\r", ",", "\u{1F}"]
        for _ in 0..<2_000 {
            let text = (0..<Int.random(in: 0...12, using: &generator)).map { _ in ascii.randomElement(using: &generator)! }.joined()
            #expect(Summary.collapsingWhitespace(text) == text.split(whereSeparator: \.isWhitespace).joined(separator: " "), "\(Array(text.unicodeScalars))")
        }
    }

    @Test func encodesURLPathsByteForByte() {
        #expect("articles/lovely-breakfast/".urlPathEncoded == "articles/lovely-breakfast/")
        #expect("tags/點心 & tea/".urlPathEncoded == "tags/%E9%BB%9E%E5%BF%83%20%26%20tea/")
        #expect("a~b_c.d%".urlPathEncoded == "a~b_c.d%25")
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

    @Test func formatsPricesWithTheCurrencySymbol() {
        let formats = Formats(language: LanguageTag("en"))
        #expect(formats.price(Price(amount: 34, currency: CurrencyCode("HKD"))) == "HK$ 34")
        #expect(formats.price(Price(amount: Decimal(string: "12.5")!, currency: CurrencyCode("USD"))) == "$ 12.50")
        #expect(formats.date(CalendarDate(year: 2016, month: 5, day: 20)) == "May 20, 2016")
        #expect(formats.weekdayDate(CalendarDate(year: 2026, month: 12, day: 4)) == "Friday, Dec 4")
    }
}

@Suite("Paths")
struct PathTests {
    @Test func keepsOutputPathsInsideTheOutputFolder() {
        for good in ["articles/x/index.html", "tags/點心/index.html", "a/.../b", "a/.b/..c", "x.sitegen-y"] {
            #expect(OutputWriter.safeRelativePath(good) == good, "\(good)")
        }
        for bad in ["../x", "a/../../x", "/etc/passwd", "a//b", "a/./b", "a\\b", "", "x\0y", "a/", ".", "..", "a/..", ".sitegen-1-x", "a/.sitegen-tmp/b"] {
            #expect(OutputWriter.safeRelativePath(bad) == nil, "\(bad)")
        }
    }

    @Test func resolvesImagesAgainstTheArticleFolderThenContent() {
        let lookup = ImageLookup(staticFiles: ["articles/a/toast.jpg", "images/logo.png", "tea.jpg"]) { _, _ in nil }
        guard case .found(let first, _) = lookup.find("toast.jpg", from: "articles/a/index.md") else { Issue.record("toast"); return }
        #expect(first == "articles/a/toast.jpg")
        guard case .found(let second, _) = lookup.find("/images/logo.png", from: "articles/a/index.md") else { Issue.record("logo"); return }
        #expect(second == "images/logo.png")
        guard case .found(let third, _) = lookup.find("tea.jpg", from: "articles/a/index.md") else { Issue.record("tea"); return }
        #expect(third == "tea.jpg")
        guard case .found(let fourth, _) = lookup.find("../a/toast.jpg?v=2", from: "articles/a/index.md") else { Issue.record("query"); return }
        #expect(fourth == "articles/a/toast.jpg")
        guard case .outside = lookup.find("../../../secret.png", from: "articles/a/index.md") else { Issue.record("outside"); return }
        guard case .missing(let tried) = lookup.find("nope.jpg", from: "articles/a/index.md") else { Issue.record("missing"); return }
        #expect(tried == ["articles/a/nope.jpg", "nope.jpg"])
    }
}

@Suite("Image sizes")
struct ImageSizeTests {
    private static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8) + [0, 0, 0x04, 0x38, 0, 0, 0x03, 0x2A]

    @Test func readsPNGGIFWebPAVIFAndBMPHeaders() {
        #expect(ImageSize.read(Self.png) == .size(width: 1080, height: 810))
        let gif: [UInt8] = Array("GIF89a".utf8) + [0x38, 0x04, 0x2A, 0x03]
        #expect(ImageSize.read(gif) == .size(width: 1080, height: 810))
        var webp: [UInt8] = Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBPVP8X".utf8) + [10, 0, 0, 0, 0, 0, 0, 0]
        webp += [0x37, 0x04, 0x00, 0x29, 0x03, 0x00]
        #expect(ImageSize.read(webp) == .size(width: 1080, height: 810))
        // ftyp (major brand avif, compatible mif1 miaf), then an ispe box inside meta.
        var avif: [UInt8] = [0, 0, 0, 24] + Array("ftypavif".utf8) + [0, 0, 0, 0] + Array("mif1miaf".utf8)
        avif += [0, 0, 0, 20] + Array("ispe".utf8) + [0, 0, 0, 0, 0, 0, 0x04, 0x38, 0, 0, 0x03, 0x2A]
        #expect(ImageSize.read(avif) == .size(width: 1080, height: 810))
        var bmp: [UInt8] = Array("BM".utf8) + Array(repeating: 0, count: 12) + [40, 0, 0, 0, 0x38, 0x04, 0, 0]
        bmp += [0xD6, 0xFC, 0xFF, 0xFF]  // −810: rows stored top-down
        #expect(ImageSize.read(bmp) == .size(width: 1080, height: 810))
    }

    @Test func readsAnSVGsSizeOrViewBox() {
        func svg(_ text: String) -> ImageSize { ImageSize.read(Array(text.utf8)) }
        #expect(svg(#"<?xml version="1.0"?>\n<!-- a logo -->\n<svg xmlns="http://www.w3.org/2000/svg" width="120px" height='80'><path/></svg>"#) == .size(width: 120, height: 80))
        #expect(svg(#"<svg viewBox="0 0 24 12" xmlns="http://www.w3.org/2000/svg"/>"#) == .size(width: 24, height: 12))
        #expect(svg(#"<svg width="48" viewBox="0,0,24,12">"#) == .size(width: 48, height: 24))
        #expect(svg(#"<svg width="100%" height="100%">"#) == .unsized)
        #expect(svg(#"<svg width="120" height="80""#) == .cutShort(format: "an SVG"))
        #expect(ImageSize.read(Array(#"<?xml version="1.0"?><svg width="1" height="1">"#.utf8.prefix(30)), isWhole: false) == .needsMore)
    }

    @Test func saysWhatAFileIsWhenItsSizeCannotBeRead() {
        #expect(ImageSize.read([]).problem == "an empty file")
        #expect(ImageSize.read([0xFF, 0xD8, 0xFF, 0xE0, 0, 16]).problem == "a JPEG that ends before its size (a file cut short?)")
        #expect(ImageSize.read([0xFF, 0xD8, 0xFF, 0xE0, 0, 16], isWhole: false) == .needsMore)
        #expect(ImageSize.read(Array(Self.png.prefix(20))).problem == "a PNG that ends before its size (a file cut short?)")
        #expect(ImageSize.read(Array("<html>not an image</html>".utf8)).problem == "a file that begins '<html>not an'")
        #expect(ImageSize.read(Array("Größe süß".utf8)).problem == "a file that begins 'Größe sü'")
        #expect(ImageSize.read([0x50, 0x4B, 0x03, 0x04, 0x14, 0, 0, 0, 8, 0, 0, 0]).problem == "a file that begins with the bytes 50 4B 03 04 14 00 00 00")
        let heic: [UInt8] = [0, 0, 0, 24] + Array("ftypheic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8)
        #expect(ImageSize.read(heic).problem == "a HEIC image, which most browsers cannot show")
        #expect(ImageSize.read(Array("II*\0".utf8) + [8, 0, 0, 0]).problem == "a TIFF image, which most browsers cannot show")
        #expect(ImageSize.read(Self.png).problem == nil)
    }

    @Test func readsTheSampleSitesJPEGs() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Content/articles/lovely-breakfast/toast.jpg")
        let bytes = try Array(Data(contentsOf: url))
        #expect(ImageSize.read(bytes) == .size(width: 960, height: 720))
    }

    @Test func readsMoreOfAJPEGWhoseSizeComesLate() {
        // A JPEG whose start of frame follows 300 KB of APP2 blocks (colour profiles).
        var jpeg: [UInt8] = [0xFF, 0xD8]
        for _ in 0..<5 { jpeg += [0xFF, 0xE2, 0xFF, 0xFF] + Array(repeating: 0, count: 0xFFFD) }
        jpeg += [0xFF, 0xC0, 0, 17, 8, 0x03, 0x2A, 0x04, 0x38] + Array(repeating: 0, count: 12)
        let file = jpeg
        let lookup = ImageLookup(staticFiles: ["big.jpg"]) { _, count in Array(file.prefix(count)) }
        guard case .found(_, let size) = lookup.find("big.jpg", from: "articles/a/index.md") else { Issue.record("big"); return }
        #expect(size == .size(width: 1080, height: 810))
    }

    /// Past `wholeFileLimit` (64 MB) nothing more is read: a JPEG whose frame comes later is
    /// said to be one whose size is not there, not one cut short.
    @Test func saysAJPEGsSizeIsNotInItsFirst64MBWhenItComesLater() {
        var jpeg: [UInt8] = [0xFF, 0xD8]
        jpeg.reserveCapacity(ImageSize.wholeFileLimit + 70_000)
        while jpeg.count <= ImageSize.wholeFileLimit { jpeg += [0xFF, 0xE2, 0xFF, 0xFF] + Array(repeating: 0, count: 0xFFFD) }
        jpeg += [0xFF, 0xC0, 0, 17, 8, 0x03, 0x2A, 0x04, 0x38] + Array(repeating: 0, count: 12)
        let file = jpeg
        let lookup = ImageLookup(staticFiles: ["huge.jpg"]) { _, count in Array(file.prefix(count)) }
        guard case .found(_, let size) = lookup.find("huge.jpg", from: "articles/a/index.md") else { Issue.record("huge"); return }
        #expect(size?.problem == "a JPEG whose size is not in its first 64 MB")
    }

    /// An SVG saved compressed (`.svgz`) shows only from a host that says it is compressed.
    @Test func tellsAFileCompressedWithGzip() {
        let svgz: [UInt8] = [0x1F, 0x8B, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0x03, 0xB3, 0x29]
        #expect(ImageSize.read(svgz).problem == "a file compressed with gzip (an .svgz?), which browsers show only when the host says so; publish the .svg")
    }
}

@Suite("User names")
struct UsernameTests {
    private func username(_ text: String) -> String? {
        try? Username(node: YAMLNode(.scalar(YAMLScalar(text, style: .quoted)), at: SourceLocation(path: "x", line: 1, column: 1))).text
    }

    @Test func keepsAUserNameWithoutItsAt() {
        #expect(username("dreamer") == "dreamer")
        #expect(username("@dreamer") == "dreamer")
        #expect(username("陳大文") == "陳大文")
        for wrong in ["", "@", "@@dreamer", "The Dreamer", "dreamer\t", "a@b"] {
            #expect(username(wrong) == nil, "\(wrong)")
        }
    }
}

@Suite("Language tags")
struct LanguageTagTests {
    private func problem(_ text: String) -> String? {
        do throws(ValueProblem) {
            _ = try LanguageTag(node: YAMLNode(.scalar(YAMLScalar(text, style: .plain)), at: SourceLocation(path: "x", line: 1, column: 1)))
            return nil
        } catch {
            guard case .invalid(let message) = error else { return "mismatch" }
            return message
        }
    }

    @Test func suggestsTheTagOfALocaleName() {
        for good in ["en", "zh-HK", "zh-Hant-HK", "de-CH-1996"] { #expect(problem(good) == nil, "\(good)") }
        #expect(problem("en_US") == "must be a language tag like en or zh-HK, found 'en_US'; did you mean 'en-US'?")
        #expect(problem("zh_HK.UTF-8") == "must be a language tag like en or zh-HK, found 'zh_HK.UTF-8'; did you mean 'zh-HK'?")
        #expect(problem("english please") == "must be a language tag like en or zh-HK, found 'english please'")
    }
}

@Suite("Numbers")
struct NumberTests {
    private func number(_ text: String) -> Number? {
        try? Number(node: YAMLNode(.scalar(YAMLScalar(text, style: .plain)), at: SourceLocation(path: "x", line: 1, column: 1)))
    }

    @Test func readsPlainDecimalNumbersOnly() {
        #expect(number("34")?.value == 34)
        #expect(number("-3.5")?.value == Decimal(string: "-3.5"))
        #expect(number("+2")?.value == 2)
        for bad in ["3-4", "1.2.3", "", "-", "1e5", "0x10", "thirty"] {
            #expect(number(bad) == nil, "\(bad)")
        }
    }

    /// The fast path must make the very Decimal the general parser makes: its text, its
    /// exponent and its digits reach prices, coordinates and the cache.
    @Test func readsNumeralsAsTheGeneralParserDoes() {
        let posix = Locale(identifier: "en_US_POSIX")
        var numerals = ["12.50", "34", "-0.5", "1.000", "22.302711", "-114.169400", "+3.0", "007", "1.", ".5", "999999999999999999",
                        "0", "-0", "0.000", "1234567890123456789", "0.0000000000000000001"]
        numerals += (1...2_000).map { "\(Double($0) * 0.0173)" } + (1...500).map { "-\($0 * 37).\($0 % 10)0" }
        for numeral in numerals {
            let general = Decimal(string: numeral, locale: posix)!
            let read = number(numeral)!.value
            #expect(withUnsafeBytes(of: read) { Array($0) } == withUnsafeBytes(of: general) { Array($0) }, "\(numeral)")
            #expect(read.description == general.description, "\(numeral)")
        }
        #expect(Number.decimal(fromNumeral: "0.000") == nil)
        #expect(Number.decimal(fromNumeral: "1234567890123456789") == nil)
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

@Suite("Percent decoding")
struct PercentEncodingTests {
    @Test func decodesEachEscapeOnceAndRefusesMalformedOnes() {
        #expect(PercentEncoding.decode("caf%C3%A9%2520menu") == Array("café%20menu".utf8))
        #expect(PercentEncoding.decode("plain") == Array("plain".utf8))
        for malformed in ["%", "%2", "%+f", "%g0", "a%2 "] {
            #expect(PercentEncoding.decode(malformed) == nil, "\(malformed)")
        }
        #expect(PercentEncoding.decode("a%2Fb", refusing: { $0 == UInt8(ascii: "/") }) == nil)
        #expect(PercentEncoding.decode("a/b", refusing: { $0 == UInt8(ascii: "/") }) == Array("a/b".utf8))
    }
}

@Suite("JSON strings")
struct JSONStringTests {
    /// The escaping written scalar by scalar, as the contract states it.
    private func reference(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "<", ">", "&", "'", "\u{2028}", "\u{2029}", "\u{0}"..."\u{1F}":
                let digits = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    @Test func escapesWhatCouldCloseAScriptOrEndALine() {
        #expect(JSONString.quote("</script>") == "\"\\u003c/script\\u003e\"")
        #expect(JSONString.quote("a\u{2028}b\u{2029}…") == "\"a\\u2028b\\u2029…\"")
        var generator = SystemRandomNumberGenerator()
        // Runs of plain text long enough to be passed eight bytes at a time, and every kind
        // of byte that must not be.
        let pieces = ["a", "\"", "\\", "\n", "\r", "\t", "\u{1}", "\u{1F}", " ", "~", "<", ">", "&", "'", "…", "—", "\u{2028}", "\u{2029}", "é", "字", "👩‍🍳", "\u{7F}",
                      "Plain words, ", "0123456789abcdef", "雲吞麵 and 奶茶", "€", "\u{2027}", "\u{202A}"]
        for _ in 0..<4_000 {
            let text = (0..<Int.random(in: 0...24, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            #expect(JSONString.quote(text) == reference(text), "\(Array(text.unicodeScalars))")
        }
    }
}

@Suite("Dates and times as written")
struct DateTimeParsingTests {
    @Test func readsExactlyTheWrittenForms() {
        #expect(CalendarDate(parsing: "2026-12-01")?.description == "2026-12-01")
        for bad in ["2026-12-1", "2026/12/01", "2026-12-01 ", "20261-2-01", "２０２６-12-01", "2026-1２-01", "", "2026-12-0a", "2026-12-0\u{301}1"] {
            #expect(CalendarDate(parsing: bad[...]) == nil, "\(bad)")
        }
        #expect(TimeOfDay(parsing: "08:15").map { [$0.hour, $0.minute, $0.second] } == [8, 15, 0])
        #expect(TimeOfDay(parsing: "23:59:59").map { [$0.hour, $0.minute, $0.second] } == [23, 59, 59])
        for bad in ["24:00", "12:60", "12:00:60", "8:15", "08:15:", "08-15", "08:15:0", "０8:15", ""] {
            #expect(TimeOfDay(parsing: bad[...]) == nil, "\(bad)")
        }
    }
}

@Suite("Content hashes")
struct ContentHashTests {
    @Test func tellsApartEveryLengthAndEveryOneBitChange() {
        var generator = SystemRandomNumberGenerator()
        var seen: [UInt64: [UInt8]] = [:]
        for length in 0..<200 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            var variants = [bytes, [UInt8](repeating: 0, count: length)]
            for bit in stride(from: 0, to: length * 8, by: 7) {
                var flipped = bytes
                flipped[bit / 8] ^= 1 << UInt8(bit % 8)
                variants.append(flipped)
            }
            for variant in variants {
                let hash = ContentHash.value(variant)
                if let earlier = seen[hash] { #expect(earlier == variant) }
                seen[hash] = variant
            }
        }
        #expect(seen.count > 20_000)
        #expect(ContentHash.hex(Array("body { color: red }".utf8)).count == 8)
    }

    /// The cache's checksums, four words at a time and then one, must still see any change
    /// of one byte, wherever it falls.
    @Test func checksumsTellEveryOneByteChange() {
        var generator = SystemRandomNumberGenerator()
        for length in 0..<160 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let checksum = Checksum.value(bytes[...])
            for place in 0..<length {
                var changed = bytes
                changed[place] ^= UInt8.random(in: 1...255, using: &generator)
                #expect(Checksum.value(changed[...]) != checksum, "length \(length), byte \(place)")
            }
            #expect(Checksum.value(bytes[...] + [0]) != checksum)
        }
    }
}

@Suite("Page fingerprints")
struct FingerprintTests {
    private func fingerprint(_ parts: [String]) -> UInt64 {
        var fingerprint = Fingerprint()
        for part in parts { fingerprint.add(part) }
        return fingerprint.value
    }

    @Test func tellsApartWhereValuesEndAndEveryOneBitChange() {
        var seen: [UInt64: [String]] = [:]
        func note(_ parts: [String]) {
            let value = fingerprint(parts)
            if let earlier = seen[value] { #expect(earlier == parts) }
            seen[value] = parts
        }
        for length in 0..<40 {
            let text = String((0..<length).map { Character(UnicodeScalar(UInt8(97 + $0 % 26))) })
            // Every split of the text into two values, and every one-bit change of it.
            for cut in 0...length {
                note([String(text.prefix(cut)), String(text.dropFirst(cut))])
            }
            for bit in 0..<(length * 7) {
                var bytes = Array(text.utf8)
                bytes[bit / 7] ^= 1 << UInt8(bit % 7)
                note([String(decoding: bytes, as: UTF8.self)])
            }
        }
        #expect(seen.count > 5_000)
        var numbers = Fingerprint()
        numbers.add(1)
        var other = Fingerprint()
        other.add(2)
        #expect(numbers.value != other.value)
    }
}

@Suite("Sorting by keys")
struct KeyedSortTests {
    @Test func ordersAsSortingByTheComparisonWouldKeepingTiesInPlace() {
        var generator = SystemRandomNumberGenerator()
        let items = (0..<2_000).map { index in (name: ["Tea", "tea", "Milk", "kaya", "Kaya"].randomElement(using: &generator)!, index: index) }
        let byKey = items.sorted(byKey: { ($0.name.lowercased(), $0.name) }, by: <)
        let byComparison = items.sorted { ($0.name.lowercased(), $0.name) < ($1.name.lowercased(), $1.name) }
        #expect(byKey.map(\.index) == byComparison.map(\.index))
    }

    @Test func lowercasesBytewiseAsTheStandardLibraryDoes() {
        var generator = SystemRandomNumberGenerator()
        let pieces = ["A", "z", "Q", "7", " ", "-", "'", "É", "é", "İ", "ß", "Σ", "ǅ", "\u{301}", "Ⅻ", "🍜", "\u{7F}", "@", "[", "`", "{", "燒", "鵝", "한", "ー", "Ａ", "ｚ"]
        for _ in 0..<3_000 {
            let text = (0..<Int.random(in: 0...12, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            #expect(text.lowercasedBytewise == text.lowercased(), "\(text)")
        }
        #expect("Double Happiness Bistro".lowercasedBytewise == "double happiness bistro")
        #expect("Chi Lin Roast Goose 燒鵝".lowercasedBytewise == "chi lin roast goose 燒鵝")
    }
}

@Suite("Numbers as dates write them")
struct ZeroPaddingTests {
    @Test func padsToTheWidthAndKeepsLongerNumbers() {
        #expect(7.zeroPadded(2) == "07")
        #expect(2026.zeroPadded(4) == "2026")
        #expect(12345.zeroPadded(4) == "12345")
        #expect(0.zeroPadded(3) == "000")
        #expect((-7).zeroPadded(2) == "-07")
        #expect(Int.max.zeroPadded(2) == String(Int.max))
        #expect(CalendarDate(year: 2026, month: 3, day: 9).description == "2026-03-09")
        #expect(CalendarDate(year: 12026, month: 3, day: 9).description == "12026-03-09")
    }
}

/// Writes the file's pages to disk and has the kernel drop them from memory.
private func drop(_ path: String) {
    let descriptor = open(path, O_RDONLY)
    fsync(descriptor)
    _ = posix_fadvise(descriptor, 0, 0, POSIX_FADV_DONTNEED)
    close(descriptor)
}

/// Whether the first page of the file at `path` is in memory.
private func isInMemory(_ path: String) -> Bool {
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    guard let mapped = mmap(nil, 1, PROT_READ, MAP_SHARED, descriptor, 0), mapped != MAP_FAILED else { return true }
    defer { munmap(mapped, 1) }
    var page: UInt8 = 0
    return mincore(mapped, 1, &page) == 0 && page & 1 != 0
}

/// A site in a new temporary folder whose Content/articles/ holds `names` (folders where a
/// name has a "/"), each file holding its name.
private func siteOfArticles(_ names: [String]) throws -> URL {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("sitegen-listing-\(UUID().uuidString)")
    for name in names {
        let file = root.appendingPathComponent("Content/articles/" + name)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(name.utf8).write(to: file)
    }
    try Data().write(to: root.appendingPathComponent("Content/site.yaml"))
    return root
}

@Suite("Listing a site's files")
struct SourceListingTests {
    @Test func listsFilesInTheOrderTheirPathsSortAsStrings() throws {
        var generator = SystemRandomNumberGenerator()
        let pieces = ["a", "b", "A", "-", ".", "0", "9", "z", "_", "~", "2026-08-31-grade-6-art-", "2026-08-31-grade-6-mathematics-", "x"]
        // Enough names for the radix sort of big folders, many sharing more than its 24 bytes,
        // and folders whose names begin other files' names ("a" beside "a-b.md" and "a.md").
        var names = Set<String>()
        while names.count < 700 {
            let stem = (0..<Int.random(in: 1...4, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            names.insert(stem + ".md")
        }
        let folders = ["a", "a-b", "2026-08-31-grade-6-art-1", "z"]
        let nested = folders.flatMap { folder in ["\(folder)/one.md", "\(folder)/b/two.md", "\(folder)-x.md", "\(folder).md"] }
        let all = names.union(nested)
        let root = try siteOfArticles(Array(all))
        defer { try? FileManager.default.removeItem(at: root) }

        let listed = SourceTree.load(siteRoot: root).markdown.map(\.contentPath)
        // Hidden files are left out.
        #expect(Set(listed) == Set(all.filter { !$0.hasPrefix(".") }.map { "articles/" + $0 }))
        #expect(listed == listed.sorted())
    }

    @Test func listsNamesBeyondASCIIAsStringsSortThem() throws {
        let names = ["é.md", "e\u{301}x.md", "e.md", "e/f.md", "ü/a.md", "z.md", "\u{1F354}.md", "E.md"]
        let root = try siteOfArticles(names)
        defer { try? FileManager.default.removeItem(at: root) }

        let listed = SourceTree.load(siteRoot: root).markdown.map(\.contentPath)
        #expect(Set(listed) == Set(names.map { "articles/" + $0 }))
        #expect(listed.count == names.count)
        #expect(listed == listed.sorted())
    }

    @Test func tellsMarkdownFilesByTheirFolder() {
        #expect(SourceTree.Kind(of: "articles/a.md") == .article)
        #expect(SourceTree.Kind(of: "articles/2026/a.md") == .article)
        #expect(SourceTree.Kind(of: "homework/a.md") == .assignment)
        #expect(SourceTree.Kind(of: "pages/about.md") == .page)
        #expect(SourceTree.Kind(of: "pages/caf\u{E9}.md") == .page)
        #expect(SourceTree.Kind(of: "articles/a.markdown") == nil)
        #expect(SourceTree.Kind(of: "articles.md") == nil)
        #expect(SourceTree.Kind(of: "images/a.md") == nil)
        #expect(SourceTree.Kind(of: ".md") == nil)
    }
}

@Suite("Folder listings kept between builds")
struct FolderListingTests {
    /// Every folder made by now counts as settled, as if the build ran an hour later: the
    /// folders of a test are too new for a listing otherwise.
    private let anHourFromNow = FolderListings.currentTime() + 3_600_000_000_000

    private func articles(_ tree: SourceTree) -> [String] { tree.markdown.map(\.contentPath) }

    /// The folder's times move on from those a listing was taken at: the clock the file
    /// system stamps them from moves in ticks of a few milliseconds.
    private func waitForTheNextTick() { usleep(50_000) }

    @Test func aFolderThatDidNotChangeIsNotReadAgain() throws {
        let root = try siteOfArticles(["a.md", "b.md", "sub/c.md"])
        defer { try? FileManager.default.removeItem(at: root) }
        let first = SourceTree.load(siteRoot: root, settledBefore: anHourFromNow)
        let folder = root.path + "/Content/articles"
        #expect(Set(first.listings.folders.keys) == [root.path + "/Content", folder, folder + "/sub"])
        #expect(first.listings.folders[folder]?.names == Array("a.md\0b.md\0sub\0".utf8))
        #expect(first.listings.folders[folder]?.isFolder == [false, false, true])

        let again = SourceTree.load(siteRoot: root, known: first.listings, settledBefore: anHourFromNow)
        #expect(articles(again) == ["articles/a.md", "articles/b.md", "articles/sub/c.md"])
        #expect(again.listings == first.listings)
        #expect(again.markdown.map(\.stamp) == first.markdown.map(\.stamp))

        // The listing is believed while the folder's stamp is the same: one that lacks b.md
        // and names a file that is not there lists a.md alone (its files are still looked up).
        var forged = first.listings
        forged.folders[folder]?.names = Array("a.md\0ghost.md\0sub\0".utf8)
        let believed = SourceTree.load(siteRoot: root, known: forged, settledBefore: anHourFromNow)
        #expect(articles(believed) == ["articles/a.md", "articles/sub/c.md"])
        // One whose names are more or fewer than its kinds is not: the folder is read.
        for kinds in [[false, false], [false, false, true, false]] {
            var mismatched = first.listings
            mismatched.folders[folder]?.isFolder = kinds
            #expect(articles(SourceTree.load(siteRoot: root, known: mismatched, settledBefore: anHourFromNow)) == articles(first))
        }
    }

    @Test func aFolderIsReadAgainOnceAnEntryIsAddedRemovedOrRenamed() throws {
        let root = try siteOfArticles(["a.md", "b.md"])
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = root.appendingPathComponent("Content/articles")
        var known = SourceTree.load(siteRoot: root, settledBefore: anHourFromNow).listings
        func load() -> [String] {
            waitForTheNextTick()
            let tree = SourceTree.load(siteRoot: root, known: known, settledBefore: anHourFromNow)
            known = tree.listings
            return articles(tree)
        }
        waitForTheNextTick()
        try Data("new".utf8).write(to: folder.appendingPathComponent("c.md"))
        #expect(load() == ["articles/a.md", "articles/b.md", "articles/c.md"])
        try FileManager.default.removeItem(at: folder.appendingPathComponent("a.md"))
        #expect(load() == ["articles/b.md", "articles/c.md"])
        try FileManager.default.moveItem(at: folder.appendingPathComponent("b.md"), to: folder.appendingPathComponent("d.md"))
        #expect(load() == ["articles/c.md", "articles/d.md"])
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("e"), withIntermediateDirectories: false)
        try Data("e".utf8).write(to: folder.appendingPathComponent("e/f.md"))
        #expect(load() == ["articles/c.md", "articles/d.md", "articles/e/f.md"])
        // A file edited in place leaves its folder as it was: its new stamp is still read.
        let before = SourceTree.load(siteRoot: root, known: known, settledBefore: anHourFromNow).markdown.map(\.stamp)
        try Data("longer than before".utf8).write(to: folder.appendingPathComponent("c.md"))
        let after = SourceTree.load(siteRoot: root, known: known, settledBefore: anHourFromNow)
        #expect(after.listings == known)
        #expect(after.markdown.map(\.stamp) != before)
    }

    @Test func aFolderWhoseNamesAreTheSameAfterAFileIsReplacedKeepsItsListing() throws {
        let root = try siteOfArticles(["a.md", "b.md"])
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = root.appendingPathComponent("Content/articles")
        let path = folder.path
        let first = SourceTree.load(siteRoot: root, settledBefore: anHourFromNow)
        // Kept in an order of its own, to tell the kept listing from one sorted again.
        var known = first.listings
        known.folders[path]?.names = Array("b.md\0a.md\0".utf8)
        func replace(_ name: String, with text: String) throws {
            waitForTheNextTick()
            try Data(text.utf8).write(to: folder.appendingPathComponent(".\(name).new"))
            try FileManager.default.removeItem(at: folder.appendingPathComponent(name))
            try FileManager.default.moveItem(at: folder.appendingPathComponent(".\(name).new"), to: folder.appendingPathComponent(name))
        }
        // b.md saved as editors save, by a rename: the folder's time changes, its names not.
        try replace("b.md", with: "new text")
        let replaced = SourceTree.load(siteRoot: root, known: known, settledBefore: anHourFromNow)
        #expect(replaced.listings.folders[path]?.names == Array("b.md\0a.md\0".utf8))
        #expect(replaced.listings.folders[path]?.stamp != known.folders[path]?.stamp)
        #expect(Set(articles(replaced)) == ["articles/a.md", "articles/b.md"])
        #expect(replaced.markdown.first { $0.contentPath == "articles/b.md" }?.stamp.size == 8)
        // As many names, but another: the folder is read and sorted again.
        waitForTheNextTick()
        try FileManager.default.moveItem(at: folder.appendingPathComponent("a.md"), to: folder.appendingPathComponent("c.md"))
        let renamed = SourceTree.load(siteRoot: root, known: replaced.listings, settledBefore: anHourFromNow)
        #expect(articles(renamed) == ["articles/b.md", "articles/c.md"])
        #expect(renamed.listings.folders[path]?.names == Array("b.md\0c.md\0".utf8))
        // The same name, now a folder: read again.
        waitForTheNextTick()
        try FileManager.default.removeItem(at: folder.appendingPathComponent("c.md"))
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("c.md"), withIntermediateDirectories: false)
        try Data("x".utf8).write(to: folder.appendingPathComponent("c.md/d.md"))
        let refolded = SourceTree.load(siteRoot: root, known: renamed.listings, settledBefore: anHourFromNow)
        #expect(articles(refolded) == ["articles/b.md", "articles/c.md/d.md"])
        #expect(refolded.listings.folders[path]?.isFolder == [false, true])
    }

    @Test func noListingIsKeptOfAFolderThatChangedLatelyOrHoldsALink() throws {
        let root = try siteOfArticles(["a.md"])
        defer { try? FileManager.default.removeItem(at: root) }
        // Changed after the time stamps are trusted from: an entry added in the same tick
        // would not change its times.
        #expect(SourceTree.load(siteRoot: root, settledBefore: FolderListings.currentTime() - 3_600_000_000_000).listings.folders.isEmpty)

        let folder = root.appendingPathComponent("Content/articles")
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/link.md", withDestinationPath: folder.path + "/a.md")
        let tree = SourceTree.load(siteRoot: root, settledBefore: anHourFromNow)
        #expect(articles(tree) == ["articles/a.md", "articles/link.md"])
        #expect(Set(tree.listings.folders.keys) == [root.path + "/Content"])
    }

    @Test func stampsAreTrustedSoonerOnFileSystemsWithAFineClock() {
        // ext4, xfs, btrfs, tmpfs: the kernel's tick; FAT (0x4D44), NFS (0x6969), unknown: two seconds.
        for type in [0xEF53, 0x5846_5342, 0x9123_683E, 0x0102_1994] { #expect(KernelFiles.fineTimestampFileSystems.contains(type)) }
        for type in [0x4D44, 0x6969, 0] { #expect(!KernelFiles.fineTimestampFileSystems.contains(type)) }
        #expect(FolderListings.settledFor(fineTimestamps: true) == 20_000_000)
        #expect(FolderListings.settledFor(fineTimestamps: false) == 2_000_000_000)
        let now = FolderListings.currentTime()
        let settled = FolderListings.settledBefore(for: FileManager.default.temporaryDirectory.path)
        #expect(settled < now && settled >= now - 2_100_000_000)
    }

    @Test func aListingsFileReadsBackAsWrittenAndIsIgnoredWhenDamaged() throws {
        let root = try siteOfArticles(["a.md", "b.md", "sub/c.md"])
        defer { try? FileManager.default.removeItem(at: root) }
        let listings = SourceTree.load(siteRoot: root, settledBefore: anHourFromNow).listings
        let file = root.path + "/site.listings"
        listings.save(to: file)
        #expect(FolderListings.load(from: file) == listings)
        #expect(!listings.folders.isEmpty)

        var bytes = try #require(FileReader.read(file))
        bytes[bytes.count / 2] ^= 0x01
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        #expect(FolderListings.load(from: file).folders.isEmpty)
        try Data(bytes.prefix(bytes.count - 3)).write(to: URL(fileURLWithPath: file))
        #expect(FolderListings.load(from: file).folders.isEmpty)
        #expect(FolderListings.load(from: root.path + "/missing.listings").folders.isEmpty)
        #expect(FolderListings.path(besides: "/cache/0f84fbcc.cache") == "/cache/0f84fbcc.listings")
    }
}

@Suite("Reading a source file")
struct FileReaderTests {
    /// A folder with a file of `count` bytes (a repeating pattern), open; closed by the caller.
    private func folder(withFileOf count: Int) throws -> (url: URL, descriptor: Int32, bytes: [UInt8]) {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("sitegen-reader-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        try Data(bytes).write(to: url.appendingPathComponent("a.md"))
        return (url, open(url.path, O_RDONLY | O_DIRECTORY), bytes)
    }

    @Test(arguments: [0, 1, 4_096, 200_000])
    func readsTheWholeFileWhateverSizeTheWalkFound(count: Int) throws {
        let (url, descriptor, bytes) = try folder(withFileOf: count)
        defer {
            close(descriptor)
            try? FileManager.default.removeItem(at: url)
        }
        // The size found, none, sizes of a file that has since grown (by a byte, by more
        // than the reader's chunk), and of one that has since shrunk.
        // Each also read first without waiting for the disk, as the build reads sources.
        for size in [count, nil, 0, max(count - 1, 0), max(count - 70_000, 0), count + 1, count + 70_000] as [Int?] {
            for notInMemory in [nil, {}] as [(() -> Void)?] {
                let read = FileReader.read("a.md", in: descriptor, size: size, notInMemory: notInMemory)
                #expect(read.map { $0 == bytes } == true, "size \(size.map(String.init) ?? "nil"), \(notInMemory == nil ? "waiting" : "not waiting") first: read \(read?.count ?? -1) of \(count) bytes")
            }
        }
        #expect(FileReader.read("missing.md", in: descriptor, size: 10) == nil)
        #expect(FileReader.read(url.appendingPathComponent("a.md").path).map { $0 == bytes } == true)
    }

    @Test func aFileInMemoryIsReadWithoutAskingForTheOnesAfterIt() throws {
        let (url, descriptor, bytes) = try folder(withFileOf: 9_000)
        defer {
            close(descriptor)
            try? FileManager.default.removeItem(at: url)
        }
        _ = FileReader.read("a.md", in: descriptor)
        let asked = Mutex(0)
        // As the walk found it, and grown since (a file that shrank since reads short of the
        // size found, which is also what a file partly in memory does: it is asked for).
        for size in [9_000, 8_999] {
            let read = FileReader.read("a.md", in: descriptor, size: size, notInMemory: { asked.withLock { $0 += 1 } })
            #expect(read.map { $0 == bytes } == true, "size \(size)")
        }
        #expect(asked.withLock { $0 } == 0)
    }

    /// Sources the kernel dropped from memory (written to disk, then dropped by
    /// `POSIX_FADV_DONTNEED`, as this kind of machine's DAMON drops pages unused for a
    /// minute) read whole, with the ones after them asked for. Where the file system
    /// keeps files only in memory (tmpfs) nothing is dropped and nothing asked for.
    @Test func sourcesOutOfMemoryAreReadWholeAndTheOnesAfterThemAskedFor() throws {
        let names = (0..<300).map { String(format: "%03d-article.md", $0) }
        let root = try siteOfArticles(names)
        defer { try? FileManager.default.removeItem(at: root) }
        let tree = SourceTree.load(siteRoot: root, settledBefore: FolderListings.currentTime() + 3_600_000_000_000)
        #expect(tree.markdown.count == names.count)
        for file in tree.markdown {
            drop(root.path + "/Content/" + file.contentPath)
        }
        // On disk file systems a dropped file is told from one in memory (ext4, xfs, btrfs).
        if let type = KernelFiles.fileSystemType(at: root.path), [0xEF53, 0x5846_5342, 0x9123_683E].contains(type) {
            // A read that must not wait still starts the disk reading the file's first pages,
            // and a fast enough disk (a VM's host cache) sometimes has them before the read
            // looks again: a tiny file is then read whole without the reader asking (7 % of
            // 2,000 tiny files on this kernel and ext4, in C). A file of 4 MB nearly never is,
            // so the reader asks for it — but once in some 150 runs of the whole suite the
            // disk kept up with all of it: dropped and read again until the reader asks, five
            // times at most. A dropped page is not always out when the drop returns (the
            // kernel drops only pages it has taken in from every core's batch): dropped until
            // `mincore` sees it out.
            let bytes = (0..<4_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
            try Data(bytes).write(to: root.appendingPathComponent("large.md"))
            let folder = open(root.path, O_RDONLY | O_DIRECTORY)
            defer { close(folder) }
            var asked = 0
            for _ in 0..<5 where asked == 0 {
                drop(root.path + "/large.md")
                for _ in 0..<50 where isInMemory(root.path + "/large.md") {
                    drop(root.path + "/large.md")
                    usleep(10_000)
                }
                #expect(!isInMemory(root.path + "/large.md"))
                let asks = Mutex(0)
                #expect(FileReader.read("large.md", in: folder, size: bytes.count, notInMemory: { asks.withLock { $0 += 1 } }) == bytes)
                asked = asks.withLock { $0 }
            }
            #expect(asked == 1)
        }
        let read = tree.reading(tree.markdown) { position, file, bytes in (file.contentPath, bytes, position) }
        #expect(read.map(\.0) == names.map { "articles/" + $0 })
        #expect(read.map(\.2) == Array(names.indices))
        #expect(read.allSatisfy { path, bytes, _ in bytes.map { String(decoding: $0, as: UTF8.self) } == String(path.dropFirst("articles/".count)) })
    }

    @Test func aSourceOutOfMemoryAloneAsksForAFewAfterItAndOnesInARowForTwiceAsMany() throws {
        let count = ReadAhead.widest * 8
        let ahead = ReadAhead(Array(repeating: (folder: -1, name: "missing.md"), count: count))
        #expect(ahead.askedBefore == 0)
        ahead.ask(after: 100)
        #expect(ahead.askedBefore == 101 + ReadAhead.narrowest)
        // Each one found near the window asked for last doubles it, up to the widest.
        var position = 101 + ReadAhead.narrowest
        var window = ReadAhead.narrowest
        for _ in 0..<6 {
            window = min(window * 2, ReadAhead.widest)
            ahead.ask(after: position)
            #expect(ahead.askedBefore == position + 1 + window)
            position += 1 + window
        }
        #expect(window == ReadAhead.widest)
        // One far from it: the narrowest again.
        position += ReadAhead.widest * 2
        ahead.ask(after: position)
        #expect(ahead.askedBefore == position + 1 + ReadAhead.narrowest)
        // One whose window was asked for already asks for nothing more.
        ahead.ask(after: position - ReadAhead.widest)
        #expect(ahead.askedBefore == position + 1 + ReadAhead.narrowest)
        ahead.ask(after: count - 1)
        #expect(ahead.askedBefore == count)
    }
}

@Suite("Text memo")
struct TextMemoTests {
    @Test func makesEachTextOnceWhileItHasRoom() {
        let memo = TextMemo<String?>(limit: 2)
        var made: [String] = []
        func make(_ text: String) -> String? {
            made.append(text)
            return text.isEmpty ? nil : text.uppercased()
        }
        #expect(memo.value(for: "a", making: make) == "A")
        #expect(memo.value(for: "a", making: make) == "A")
        #expect(memo.value(for: "", making: make) == nil)
        #expect(memo.value(for: "", making: make) == nil)
        #expect(made == ["a", ""])
        // Full: a third text is made every time, the first two still once.
        #expect(memo.value(for: "b", making: make) == "B")
        #expect(memo.value(for: "b", making: make) == "B")
        #expect(memo.value(for: "a", making: make) == "A")
        #expect(made == ["a", "", "b", "b"])
    }

    /// The texts are kept in several tables; the limit is of all of them together.
    @Test func keepsNoMoreTextsThanItsLimitAcrossItsTables() {
        let memo = TextMemo<Int>(limit: 5)
        var made = 0
        let texts = (0..<40).map { "tag \($0)" }
        for _ in 0..<2 {
            for text in texts { _ = memo.value(for: text) { made += 1; return $0.count } }
        }
        #expect(made == 40 + 35)
    }

    /// Threads filling the memo at once keep no more than its limit between them.
    @Test func keepsNoMoreTextsThanItsLimitWhenThreadsAddAtOnce() {
        let memo = TextMemo<Int>(limit: 5)
        let texts = (0..<2_000).map { "tag \($0)" }
        DispatchQueue.concurrentPerform(iterations: texts.count) { index in
            _ = memo.value(for: texts[index]) { $0.count }
        }
        var madeAgain = 0
        for text in texts { _ = memo.value(for: text) { madeAgain += 1; return $0.count } }
        #expect(texts.count - madeAgain == 5)
    }
}

