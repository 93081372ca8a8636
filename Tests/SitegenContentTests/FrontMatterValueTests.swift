import Foundation
@testable import SitegenContent
import SitegenSupport
import SitegenYAML
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
}
