import Foundation
import SitegenContent
import SitegenPipeline
import SitegenTestSupport
import Testing

@Suite("Homework pages")
struct HomeworkPagesTests {
    private static let site = "title: School\nbase_url: https://example.org/school/\ntimezone: Asia/Hong_Kong\nhomework:\n  grades: [6, 7, K]\n  school: Harbour View\n"
    private static let teachers = "- {id: ms-lee, name: Ms. Lee, subject: Math, grades: [6, 7], blog: \"https://example.org/lee/\"}\n"

    private func build(_ files: [String: String], today: String = "2026-11-25T15:00") throws -> (TemporaryFolder, BuildReport) {
        let folder = TemporaryFolder()
        try folder.write(Self.site, to: "site/Content/site.yaml")
        try folder.write(Self.teachers, to: "site/Content/teachers.yaml")
        for (path, text) in files { try folder.write(text, to: "site/\(path)") }
        let report = SiteBuilder.build(BuildOptions(source: folder.url.appendingPathComponent("site").path, today: today))
        return (folder, report)
    }

    private func page(_ folder: TemporaryFolder, _ path: String) -> String {
        (try? String(contentsOf: folder.url.appendingPathComponent("site/Output/\(path)"), encoding: .utf8)) ?? ""
    }

    @Test func saysWhenNoHomeworkHasBeenPostedAtAll() throws {
        let (folder, report) = try build([:])
        #expect(report.succeeded)
        #expect(page(folder, "homework/index.html").contains("No homework posted yet"))
        // Readers are told what to expect, not where authors keep their files.
        #expect(!page(folder, "homework/index.html").contains("Content/homework"))
        #expect(page(folder, "homework/grade-k/index.html").contains("No homework has been posted yet"))
        #expect(page(folder, "homework/grade-k/index.html").contains("<h1 class=\"page-title\">Kindergarten</h1>"))
    }

    @Test func saysWhenEveryAssignmentOfAGradeIsADraft() throws {
        let (folder, report) = try build([
            "Content/homework/a.md": "---\ntitle: Fractions\nteacher: ms-lee\ngrade: 6\nassigned: 2026-11-25\ndraft: true\n---\n",
            "Content/homework/b.md": "---\ntitle: Ratios\nteacher: ms-lee\ngrade: 7\nassigned: 2026-11-25\n---\n",
        ])
        #expect(report.succeeded)
        #expect(page(folder, "homework/grade-6/index.html").contains("Every assignment of 6th grade is still a draft"))
        #expect(page(folder, "homework/grade-7/index.html").contains("7th grade has homework in Math tonight."))
        #expect(page(folder, "homework/grade-7/index.html").contains("Nothing else is due in the coming days."))
        #expect(page(folder, "homework/grade-6/2026-11-25/index.html").contains("6th grade had no homework on Wednesday, Nov 25."))
        #expect(page(folder, "homework/grade-6/2026-11-25/index.html").contains("No assignments for 6th grade that day; other grades had some."))
    }

    @Test func groupsUpcomingWorkAndLinksTheSubscriptions() throws {
        let (folder, report) = try build([
            "Content/homework/a.md": "---\ntitle: Quiz\nteacher: ms-lee\ngrade: 7\nicon: quiz\nassigned: 2026-11-24\ndue: 2026-11-27T08:15\n---\nChapter 3.\n",
            "Content/homework/b.md": "---\ntitle: Worksheet\nteacher: ms-lee\ngrade: 7\nassigned: 2026-11-25\ndue: 2026-11-26\n---\n",
        ])
        #expect(report.succeeded)
        let grade = page(folder, "homework/grade-7/index.html")
        #expect(grade.contains("<time datetime=\"2026-11-27\">Due Friday, Nov 27</time>"))
        #expect(grade.contains("Due <time datetime=\"2026-11-27T08:15\">Friday, Nov 27, 8:15\u{202F}AM</time>"))
        #expect(grade.contains("<link rel=\"alternate\" type=\"application/atom+xml\" title=\"7th grade: homework\" href=\"/school/homework/grade-7/feed.xml\">"))
        #expect(grade.contains("href=\"webcal://example.org/school/homework/grade-7/calendar.ics\""))
        #expect(grade.contains("<a href=\"https://example.org/lee/\">Ms. Lee</a>"))
        #expect(grade.contains("role=\"img\" aria-label=\"Quiz\""))
        #expect(grade.contains("Updated Wednesday, Nov 25, 2:00\u{202F}PM"))
        let calendar = page(folder, "homework/grade-7/calendar.ics")
        #expect(calendar.contains("DTSTART;TZID=Asia/Hong_Kong:20261127T081500\r\n"))
        #expect(calendar.contains("UID:a@example.org\r\n"))
        #expect(page(folder, "homework/grade-7/feed.xml").contains("<id>tag:example.org,2026-11-24:homework/a</id>"))
    }

    @Test func showsLastNightBeforeTheReleaseTime() throws {
        let (folder, report) = try build([
            "Content/homework/a.md": "---\ntitle: Fractions\nteacher: ms-lee\ngrade: 6\nassigned: 2026-11-24\n---\n",
            "Content/homework/b.md": "---\ntitle: Decimals\nteacher: ms-lee\ngrade: 6\nassigned: 2026-11-25\n---\n",
        ], today: "2026-11-25T09:30")
        #expect(report.succeeded)
        let grade = page(folder, "homework/grade-6/index.html")
        #expect(grade.contains("6th grade had homework in Math last night."))
        #expect(grade.contains("Last night · Tuesday, Nov 24"))
        #expect(!grade.contains("Decimals"))
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("site/Output/homework/grade-6/2026-11-25/index.html").path))
    }

    @Test func leavesFeedsOutWithAWarningWithoutABaseURL() throws {
        let folder = TemporaryFolder()
        try folder.write("title: School\nhomework:\n  grades: [6]\n", to: "site/Content/site.yaml")
        let report = SiteBuilder.build(BuildOptions(source: folder.url.appendingPathComponent("site").path, today: "2026-11-25"))
        #expect(report.succeeded)
        #expect(report.diagnostics.map(\.description) == ["Content/site.yaml:1:1: warning: 'base_url' is not set: the feeds, calendars, sitemap and canonical links need absolute URLs and are left out; set it or pass --base-url"])
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("site/Output/homework/grade-6/feed.xml").path))
    }
}
