import Foundation
import SitegenCLI
import SitegenTestSupport
import Testing

/// Work written once with `repeat:`, given on each school day it names: across a weekend
/// and a holiday (Sports Day, Wednesday 2026-12-02), in the pages, the feed and the
/// calendar.
@Suite("Work that repeats")
struct RepeatingWorkTests {
    private static let site = """
        title: School
        base_url: https://example.org/
        timezone: Asia/Hong_Kong
        homework:
          grades: [7, 8]
          holidays: [{date: 2026-12-02, name: Sports Day}]

        """
    private static let teachers = "- {id: mr-ho, name: Mr. Ho, subject: English, grades: [8]}\n- {id: ms-lee, name: Ms. Lee, subject: Math, grades: [7, 8]}\n"
    private static let reading = "---\ntitle: Reading log\nteacher: mr-ho\nassigned: 2026-11-26\nrepeat: {every: school day, until: 2026-12-04}\n---\nTwenty minutes.\n"
    private static let tables = "---\ntitle: Times tables\nteacher: ms-lee\ngrade: 7\nassigned: 2026-11-26\nrepeat: {on: [mon, wed, fri], until: 2026-12-04}\n---\n"

    /// The build's status and what it printed (its diagnostics).
    private func build(_ folder: TemporaryFolder, today: String, output: String = "out", cache: Bool = false) -> (status: Int32, errors: String) {
        let console = CapturedConsole()
        let caching = cache ? ["--cache-dir", folder.url.appendingPathComponent("cache").path] : ["--no-cache"]
        let status = CommandLineTool.run(arguments: ["build", "--quiet", "--source", folder.url.appendingPathComponent("site").path,
                                                     "--output", folder.url.appendingPathComponent(output).path, "--today", today] + caching,
                                         console: console.console)
        return (status, console.error)
    }

    private func site() throws -> TemporaryFolder {
        let folder = TemporaryFolder()
        try folder.write(Self.site, to: "site/Content/site.yaml")
        try folder.write(Self.teachers, to: "site/Content/teachers.yaml")
        try folder.write(Self.reading, to: "site/Content/homework/reading-log.md")
        try folder.write(Self.tables, to: "site/Content/homework/times-tables.md")
        return folder
    }

    private func page(_ folder: TemporaryFolder, _ path: String, output: String = "out") -> String {
        (try? String(contentsOf: folder.url.appendingPathComponent(output).appendingPathComponent(path), encoding: .utf8)) ?? ""
    }

    @Test func isGivenOnEachSchoolDayAndDueOnTheNext() throws {
        let folder = try site()
        let (status, errors) = build(folder, today: "2026-12-07T15:00")
        #expect(status == 0)
        #expect(errors == "")
        // Thursday and Friday, then Monday and Tuesday; not the weekend, not Sports Day,
        // not after `until`.
        let days = ["2026-11-26", "2026-11-27", "2026-11-30", "2026-12-01", "2026-12-03", "2026-12-04"]
        for day in days {
            #expect(page(folder, "homework/grade-8/\(day)/index.html").contains("Reading log"), "\(day)")
        }
        for day in ["2026-11-28", "2026-11-29", "2026-12-02", "2026-12-07"] {
            #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("out/homework/grade-8/\(day)").path), "\(day)")
        }
        // Friday's is due Monday; Tuesday's, the day before Sports Day, on Thursday.
        let calendar = page(folder, "homework/grade-8/calendar.ics")
        #expect(calendar.components(separatedBy: "BEGIN:VEVENT").count - 1 == days.count)
        #expect(calendar.contains("UID:reading-log-2026-11-27@example.org\r\nDTSTAMP:"))
        #expect(calendar.contains("UID:reading-log-2026-12-01@example.org\r\n"))
        let events = calendar.components(separatedBy: "BEGIN:VEVENT").dropFirst()
        let friday = try #require(events.first { $0.contains("reading-log-2026-11-27@") })
        #expect(friday.contains("DTSTART;VALUE=DATE:20261130\r\n"))
        let tuesday = try #require(events.first { $0.contains("reading-log-2026-12-01@") })
        #expect(tuesday.contains("DTSTART;VALUE=DATE:20261203\r\n"))
        // One feed entry per day, each with an id of its own.
        let feed = page(folder, "homework/grade-8/feed.xml")
        for day in days {
            #expect(feed.contains("<id>tag:example.org,\(day):homework/reading-log-\(day)</id>"), "\(day)")
        }
        // Only on the weekdays it names: Friday, Monday and Friday (Wednesday was Sports Day).
        let seventh = page(folder, "homework/grade-7/calendar.ics")
        #expect(seventh.components(separatedBy: "BEGIN:VEVENT").count - 1 == 3)
        for day in ["2026-11-27", "2026-11-30", "2026-12-04"] {
            #expect(seventh.contains("UID:times-tables-\(day)@example.org"), "\(day)")
        }
        #expect(page(folder, "homework/grade-7/2026-11-30/index.html").contains("Every Monday, Wednesday and Friday until Friday, Dec 4"))
    }

    @Test func isTonightSHomeworkOnTheDaysItIsGiven() throws {
        let folder = try site()
        #expect(build(folder, today: "2026-12-01T15:00").status == 0)
        let grade = page(folder, "homework/grade-8/index.html")
        #expect(grade.contains("8th grade has homework in English tonight. No school tomorrow: Sports Day."))
        #expect(grade.contains("Every school day until Friday, Dec 4"))
        // After `until`, nothing more is given.
        #expect(build(folder, today: "2026-12-07T15:00", output: "later").status == 0)
        #expect(page(folder, "homework/grade-8/index.html", output: "later").contains("8th grade has no homework tonight."))
    }

    /// A change of `repeat` reaches every day it gives the work on, through the cache as
    /// without it.
    @Test func theCacheFollowsAChangedRepeat() throws {
        let folder = try site()
        #expect(build(folder, today: "2026-12-07T15:00", cache: true).status == 0)
        try folder.write(Self.reading.replacingOccurrences(of: "every: school day", with: "on: [tue, thu]"), to: "site/Content/homework/reading-log.md")
        #expect(build(folder, today: "2026-12-07T15:00", cache: true).status == 0)
        #expect(build(folder, today: "2026-12-07T15:00", output: "fresh").status == 0)
        #expect(FolderSnapshot(folder.url.appendingPathComponent("out")).files == FolderSnapshot(folder.url.appendingPathComponent("fresh")).files)
        #expect(!page(folder, "homework/grade-8/2026-11-27/index.html").contains("Reading log"))
        #expect(page(folder, "homework/grade-8/2026-12-03/index.html").contains("Every Tuesday and Thursday until Friday, Dec 4"))
    }

    @Test func withoutAnEndItRepeatsThroughTheBuildSDayWithAWarning() throws {
        let folder = try site()
        try folder.write(Self.reading.replacingOccurrences(of: ", until: 2026-12-04", with: ""), to: "site/Content/homework/reading-log.md")
        let (status, errors) = build(folder, today: "2026-12-09T15:00")
        #expect(status == 0)
        #expect(errors == "Content/homework/reading-log.md:5:9: warning: 'repeat' has no end: give 'until' with the last day it is given, like until: 2027-06-30 (docs/homework.md#work-that-repeats)\n")
        #expect(page(folder, "homework/grade-8/2026-12-09/index.html").contains("Reading log"))
        #expect(!page(folder, "homework/grade-8/index.html").contains(" until "))
    }
}
