import Foundation
import SitegenCLI
import SitegenTestSupport
import Testing

/// The sample site's homework by its school calendar (Monday to Friday; Sports Day on
/// 2026-12-08, the Christmas holidays from 2026-12-24 to 2027-01-01), at several moments.
@Suite("Homework by the school calendar")
struct SchoolCalendarPageTests {
    private func build(_ folder: TemporaryFolder, _ output: String, at today: String, cache: Bool = false, source: URL = Repository.root) -> URL {
        let url = folder.url.appendingPathComponent(output)
        let console = CapturedConsole()
        let caching = cache ? ["--cache-dir", folder.url.appendingPathComponent("cache").path] : ["--no-cache"]
        #expect(CommandLineTool.run(arguments: ["build", "--source", source.path, "--output", url.path, "--today", today, "--quiet"] + caching, console: console.console) == 0)
        #expect(console.error == "")
        return url
    }

    private func page(_ output: URL, _ path: String) -> String {
        (try? String(contentsOf: output.appendingPathComponent(path), encoding: .utf8)) ?? ""
    }

    /// The sentence a grade's page leads with, and the heading of the work under it.
    private func lead(_ output: URL, grade: String) -> (String, String) {
        let html = page(output, "homework/grade-\(grade)/index.html")
        func text(after marker: String) -> String {
            guard let start = html.range(of: marker), let end = html.range(of: "<", range: start.upperBound..<html.endIndex) else { return "" }
            return String(html[start.upperBound..<end.lowerBound])
        }
        return (text(after: "<p class=\"page-lead homework-sentence\">"), text(after: "<h2 id=\"digest-title\" class=\"section-header\">"))
    }

    @Test func aWeekendShowsWhatIsDueOnMonday() {
        let folder = TemporaryFolder()
        let saturday = build(folder, "saturday", at: "2026-12-05T10:00")
        #expect(lead(saturday, grade: "8") == ("No school today. 8th grade has Math and English due Monday.", "Next school day · Monday, Dec 7"))
        #expect(page(saturday, "homework/index.html").contains("No school today. 8th grade has Math and English due Monday."))
        #expect(page(saturday, "homework/grade-8/index.html").contains("Linear equations"))
        // Friday evening: the work is due "Monday", the next school day, not "Monday, Dec 7".
        let friday = build(folder, "friday", at: "2026-12-04T15:00")
        #expect(lead(friday, grade: "8").0 == "8th grade has homework in Math and English tonight.")
        #expect(page(friday, "homework/grade-8/index.html").contains("Due <time datetime=\"2026-12-07\">Monday</time>"))
        // Monday morning: Friday's work, by its day, not "last night".
        let monday = build(folder, "monday", at: "2026-12-07T08:00")
        #expect(lead(monday, grade: "8") == ("8th grade had homework in Math and English on Friday, Dec 4.", "Last school day · Friday, Dec 4"))
    }

    @Test func aHolidayIsNamed() {
        let folder = TemporaryFolder()
        #expect(lead(build(folder, "eve", at: "2026-12-07T15:00"), grade: "8").0 == "8th grade has no homework tonight. No school tomorrow: Sports Day.")
        #expect(lead(build(folder, "day", at: "2026-12-08T09:00"), grade: "8").0 == "No school today: Sports Day. 8th grade has nothing due tomorrow.")
        #expect(lead(build(folder, "after", at: "2026-12-09T09:00"), grade: "8").0 == "8th grade had no homework on Monday, Dec 7.")
        #expect(lead(build(folder, "christmas", at: "2026-12-28T15:00"), grade: "8") == ("No school today: Christmas holidays. 8th grade has nothing due Monday, Jan 4.", "Next school day · Monday, Jan 4"))
    }

    /// On a day off, the pages show work of another day than the digest's: an edit of its
    /// due date must reach them through the cache as without it.
    @Test func theCacheFollowsWhatIsDueOnTheNextSchoolDay() throws {
        let folder = TemporaryFolder()
        let site = folder.url.appendingPathComponent("site")
        try FileManager.default.createDirectory(at: site, withIntermediateDirectories: true)
        for part in ["Content", "Themes"] { try FileManager.default.copyItem(at: Repository.root.appendingPathComponent(part), to: site.appendingPathComponent(part)) }
        let cached = build(folder, "cached", at: "2026-12-05T10:00", cache: true, source: site)
        let assignment = site.appendingPathComponent("Content/homework/2026-12-04/linear-equations-grade-8.md")
        let text = try String(contentsOf: assignment, encoding: .utf8)
        #expect(text.contains("due: 2026-12-07"))
        try text.replacingOccurrences(of: "due: 2026-12-07", with: "due: 2026-12-09").write(to: assignment, atomically: false, encoding: .utf8)
        _ = build(folder, "cached", at: "2026-12-05T10:00", cache: true, source: site)
        let fresh = build(folder, "fresh", at: "2026-12-05T10:00", source: site)
        #expect(FolderSnapshot(cached).files == FolderSnapshot(fresh).files)
        #expect(lead(cached, grade: "8").0 == "No school today. 8th grade has English due Monday.")
    }
}
