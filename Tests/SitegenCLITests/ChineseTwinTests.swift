import Foundation
import SitegenCLI
@testable import SitegenPipeline
import SitegenTestSupport
import Testing

/// The sample site's Traditional Chinese twin (Tests/Fixtures/zh-hk-twin): its home and
/// homework pages as golden files, and no English word of the default theme on any page
/// at any moment.
@Suite("The Traditional Chinese twin")
struct ChineseTwinTests {
    static let twin = Repository.root.appendingPathComponent("Tests/Fixtures/zh-hk-twin")
    static let golden = Repository.root.appendingPathComponent("Tests/Golden/zh-hk-twin")
    static let goldenPages = ["index.html", "page/2/index.html", "homework/index.html", "homework/grade-f2/index.html", "homework/grade-p6/index.html",
                              "homework/grade-f2/2026-11-25/index.html", "homework/teachers/index.html"]

    private func build(at today: String, _ extra: [String] = []) throws -> (TemporaryFolder, URL) {
        let folder = TemporaryFolder()
        let output = folder.url.appendingPathComponent("out")
        let console = CapturedConsole()
        #expect(CommandLineTool.run(arguments: ["build", "--no-cache", "--strict", "--quiet", "--source", Self.twin.path, "--output", output.path, "--today", today] + extra,
                                    console: console.console) == 0)
        #expect(console.error == "", "\(today)")
        return (folder, output)
    }

    @Test func matchesTheGoldenFiles() throws {
        let (folder, output) = try build(at: SampleSiteTests.today)
        _ = folder
        for path in Self.goldenPages {
            let built = try String(contentsOf: output.appendingPathComponent(path), encoding: .utf8)
            let target = Self.golden.appendingPathComponent(path)
            if ProcessInfo.processInfo.environment["SITEGEN_UPDATE_GOLDEN"] == "1" {
                try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                try built.write(to: target, atomically: true, encoding: .utf8)
                continue
            }
            let expected = try? String(contentsOf: target, encoding: .utf8)
            #expect(built == expected, "\(path) differs from Tests/Golden/zh-hk-twin/\(path)\n\(SampleSiteTests.firstDifference(expected ?? "", built))")
        }
    }

    /// Each English word of the theme (of three letters or more, but the map service's
    /// name), as a whole word.
    static let englishWords: Set<String> = {
        var words: Set<String> = []
        for value in ThemeStrings.english.values.values {
            for word in value.split(whereSeparator: { !$0.isLetter || !$0.isASCII }) where word.count >= 3 && word != "OpenStreetMap" {
                words.insert(String(word))
            }
        }
        return words
    }()

    /// What readers read of a page: its text and the attributes read aloud or shown.
    private func readable(_ html: String) -> String {
        var text = html
        for pattern in ["<script[^>]*>[\\s\\S]*?</script>", "<style[^>]*>[\\s\\S]*?</style>", "<meta[^>]*>", "<link[^>]*>"] {
            text = text.replacingOccurrences(of: pattern, with: " ", options: .regularExpression)
        }
        var shown: [String] = []
        for pattern in ["(?:aria-label|title|alt|data-copied|data-copy-failed|data-title)=\"([^\"]*)\"", ">([^<]+)<"] {
            let regex = try! NSRegularExpression(pattern: pattern)
            for match in regex.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                shown.append(String(text[Range(match.range(at: 1), in: text)!]))
            }
        }
        return shown.joined(separator: " ")
    }

    /// The theme's English words in readable text, as the scan below finds them.
    private func englishWords(in html: String) -> Set<String> {
        Set(readable(html).split(whereSeparator: { !$0.isLetter || !$0.isASCII }).map(String.init).filter { Self.englishWords.contains($0) })
    }

    @Test func theScanFindsTheThemesEnglishOnTheSampleSite() throws {
        let english = try String(contentsOf: Repository.golden.appendingPathComponent("homework/grade-8/index.html"), encoding: .utf8)
        #expect(englishWords(in: english).isSuperset(of: ["Tonight", "Upcoming", "Subscribe", "homework"]))
    }

    @Test(arguments: ["2026-11-25T15:00", "2026-11-26T08:00", "2026-11-28T10:00", "2026-12-07T15:00", "2026-12-08T09:00", "2026-12-28T15:00"])
    func showsNoEnglishWordOfTheTheme(at today: String) throws {
        let (folder, output) = try build(at: today, ["--future"])
        _ = folder
        for (path, bytes) in FolderSnapshot(output).files where path.hasSuffix(".html") || path.hasSuffix(".xml") || path.hasSuffix(".ics") {
            let text = String(decoding: bytes, as: UTF8.self)
            var shown = path.hasSuffix(".html") ? readable(text) : text.replacingOccurrences(of: "<[^>]+>", with: " ", options: .regularExpression)
            // Addresses and the calendar's product id are not read.
            for pattern in ["(?:https?|webcal|tag|mailto):[^\\s\"<]*", "PRODID:[^\\n]*"] {
                shown = shown.replacingOccurrences(of: pattern, with: " ", options: .regularExpression)
            }
            let found = shown.split(whereSeparator: { !$0.isLetter || !$0.isASCII }).map(String.init).filter { Self.englishWords.contains($0) }
            #expect(found.isEmpty, "\(today) \(path): \(Set(found).sorted())")
        }
    }
}
