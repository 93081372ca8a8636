import Foundation
import SitegenCLI
import SitegenTestSupport
import Testing

/// Tonight's sentence for other channels: `tonight.txt` and `feed.json` beside each grade's
/// Atom feed, and `sitegen digest`, all saying what the grade's page says.
@Suite("Digest")
struct DigestTests {
    private func run(_ arguments: [String]) -> (status: Int32, output: String, errors: String) {
        let console = CapturedConsole()
        let status = CommandLineTool.run(arguments: arguments, console: console.console)
        return (status, console.output, console.error)
    }

    private func digest(_ arguments: [String], source: URL = Repository.root) -> (status: Int32, output: String, errors: String) {
        run(["digest", "--source", source.path] + arguments)
    }

    private func build(_ folder: TemporaryFolder, at today: String) -> URL {
        let output = folder.url.appendingPathComponent(today)
        #expect(run(["build", "--no-cache", "--quiet", "--source", Repository.root.path, "--output", output.path, "--today", today]).status == 0)
        return output
    }

    private func text(_ output: URL, _ path: String) -> String {
        (try? String(contentsOf: output.appendingPathComponent(path), encoding: .utf8)) ?? ""
    }

    /// The sentence of a grade's page, as it leads the page.
    private func pageSentence(_ output: URL, grade: String) -> String {
        let html = text(output, "homework/grade-\(grade)/index.html")
        guard let start = html.range(of: "<p class=\"page-lead homework-sentence\">"),
              let end = html.range(of: "<", range: start.upperBound..<html.endIndex) else { return "" }
        return String(html[start.upperBound..<end.lowerBound])
    }

    /// Tonight, last night, after a weekend, on a holiday and on its eve: the digest, the
    /// published tonight.txt and the page say the same.
    @Test(arguments: ["2026-12-04T15:00", "2026-12-04T09:00", "2026-12-05T10:00", "2026-12-07T08:00", "2026-12-07T15:00", "2026-12-08T09:00"])
    func saysWhatThePageSays(_ today: String) throws {
        let folder = TemporaryFolder()
        let output = build(folder, at: today)
        for grade in ["6", "7", "8"] {
            let (status, printed, errors) = digest(["--grade", grade, "--today", today])
            #expect(status == 0)
            #expect(errors == "")
            let sentence = pageSentence(output, grade: grade).replacingOccurrences(of: "&#39;", with: "'")
            #expect(!sentence.isEmpty)
            #expect(printed.hasPrefix(sentence + "\n"), "\(today) grade \(grade): \(printed)")
            #expect(printed == text(output, "homework/grade-\(grade)/tonight.txt"), "\(today) grade \(grade)")
            #expect(printed.hasSuffix("\nhttps://example.org/homework/grade-\(grade)/\n"))
        }
    }

    @Test func listsTheWorkOfTheDayWithWhenItIsDue() {
        let (status, printed, _) = digest(["--grade", "8", "--today", "2026-12-04T15:00"])
        #expect(status == 0)
        #expect(printed == """
            8th grade has homework in Math and English tonight.

            Math: Linear equations (Due Monday)
            English: Poetry analysis (Due Monday)

            https://example.org/homework/grade-8/

            """)
    }

    @Test func givesEveryGradeAsJSON() throws {
        let (status, printed, _) = digest(["--format", "json", "--today", "2026-12-04T15:00", "--base-url", "https://school.example.org/hw/"])
        #expect(status == 0)
        let grades = try #require(try JSONSerialization.jsonObject(with: Data(printed.utf8)) as? [[String: Any]])
        #expect(grades.map { $0["grade"] as? String } == ["6", "7", "8"])
        let eighth = grades[2]
        #expect(eighth["sentence"] as? String == "8th grade has homework in Math and English tonight.")
        #expect(eighth["kind"] as? String == "tonight")
        #expect(eighth["day"] as? String == "2026-12-04")
        #expect(eighth["url"] as? String == "https://school.example.org/hw/homework/grade-8/")
        let work = try #require(eighth["work"] as? [[String: Any]])
        #expect(work.first?["title"] as? String == "Linear equations")
        #expect(work.first?["teacher"] as? String == "Ms. Lee")
        #expect(work.first?["due"] as? String == "2026-12-07")
        #expect(work.first?["url"] as? String == "https://school.example.org/hw/homework/grade-8/2026-12-04/")
    }

    @Test func refusesAGradeTheSiteHasNot() {
        let (status, printed, errors) = digest(["--grade", "9"])
        #expect(status == 2)
        #expect(printed == "")
        #expect(errors == "sitegen digest: error: --grade must be one of homework.grades in site.yaml (6, 7, 8), found '9'\n")
        #expect(digest(["--format", "yaml"]).errors == "sitegen digest: error: --format must be text or json, found 'yaml'\n")
    }

    /// A site with an error prints it, and nothing a bot could post.
    @Test func printsNothingForASiteWithAnError() throws {
        let folder = TemporaryFolder()
        try folder.write("title: School\nhomework:\n  grades: [7]\n", to: "site/Content/site.yaml")
        try folder.write("---\ntitle: Fractions\nsubject: Math\ngrade: 7\nassigned: 2026-13-01\n---\n", to: "site/Content/homework/a.md")
        let (status, printed, errors) = digest([], source: folder.url.appendingPathComponent("site"))
        #expect(status == 1)
        #expect(printed == "")
        #expect(errors.hasPrefix("Content/homework/a.md:5:11: error: "), "\(errors)")
    }

    /// The JSON Feed holds the Atom feed's entries, with the same ids, and its links absolute.
    @Test func theJSONFeedHoldsTheAtomFeedSEntries() throws {
        let folder = TemporaryFolder()
        let output = build(folder, at: "2026-12-04T15:00")
        let feed = try #require(try JSONSerialization.jsonObject(with: Data(text(output, "homework/grade-8/feed.json").utf8)) as? [String: Any])
        #expect(feed["version"] as? String == "https://jsonfeed.org/version/1.1")
        #expect(feed["feed_url"] as? String == "https://example.org/homework/grade-8/feed.json")
        let items = try #require(feed["items"] as? [[String: Any]])
        let atom = text(output, "homework/grade-8/feed.xml")
        let atomIDs = atom.components(separatedBy: "<entry>\n    <id>").dropFirst().map { String($0.prefix { $0 != "<" }) }
        #expect(items.map { $0["id"] as? String } == atomIDs)
        #expect(items.allSatisfy { ($0["url"] as? String)?.hasPrefix("https://example.org/homework/grade-8/") == true })
        #expect(items.allSatisfy { $0["content_html"] != nil || $0["content_text"] != nil })
        #expect(text(output, "homework/grade-8/index.html").contains("<link rel=\"alternate\" type=\"application/feed+json\" title=\"8th grade: homework\" href=\"/homework/grade-8/feed.json\">"))
    }
}
