import Foundation
@testable import SitegenContent
import SitegenSupport
import SitegenYAML
import Testing

@Suite("Paths")
struct PathTests {
    @Test func resolvesImagesAgainstTheArticleFolderThenContent() {
        let lookup = ImageLookup(staticFiles: ["articles/a/toast.jpg", "images/logo.png", "tea.jpg"]) { _, _ in nil }
        guard case .found(let first, _, _) = lookup.find("toast.jpg", from: "articles/a/index.md") else { Issue.record("toast"); return }
        #expect(first == "articles/a/toast.jpg")
        guard case .found(let second, _, _) = lookup.find("/images/logo.png", from: "articles/a/index.md") else { Issue.record("logo"); return }
        #expect(second == "images/logo.png")
        guard case .found(let third, _, _) = lookup.find("tea.jpg", from: "articles/a/index.md") else { Issue.record("tea"); return }
        #expect(third == "tea.jpg")
        guard case .found(let fourth, _, _) = lookup.find("../a/toast.jpg?v=2", from: "articles/a/index.md") else { Issue.record("query"); return }
        #expect(fourth == "articles/a/toast.jpg")
        guard case .outside = lookup.find("../../../secret.png", from: "articles/a/index.md") else { Issue.record("outside"); return }
        guard case .missing(let tried) = lookup.find("nope.jpg", from: "articles/a/index.md") else { Issue.record("missing"); return }
        #expect(tried == ["articles/a/nope.jpg", "nope.jpg"])
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
