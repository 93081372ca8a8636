import Foundation
import SitegenContent
@testable import SitegenIncremental
import SitegenPipeline
import SitegenSupport
import SitegenTestSupport
import SitegenYAML
import Testing

/// A schedule made of the assignments the homework's keys pick for an edit answers, for
/// the pages that show the edit and the summary every grade's pages lead with, as a
/// schedule of every assignment does.
@Suite("Homework keys")
struct HomeworkKeysTests {
    private static let site = Site(node: try! YAMLReader.read(Array("title: School\ntimezone: Asia/Hong_Kong\nhomework:\n  grades: [6, 7, 8]\n  release_time: \"14:00\"\n  subjects: [Math, Science]\n".utf8),
                                                              path: "Content/site.yaml"), log: DiagnosticLog())
    private static let context = ModelContext(site: site, teachers: [:], images: ImageLookup(staticFiles: []) { _, _ in nil })
    private static let first = CalendarDate(year: 2026, month: 9, day: 1)

    private static func assignment(_ number: Int, using random: inout SplitMix) -> Assignment {
        // Half of them in the weeks before the moments tested: a grade's feed then holds
        // fewer days than its page counts.
        let day = CalendarDate(dayNumber: first.dayNumber + (Bool.random(using: &random) ? Int.random(in: 242..<257, using: &random) : Int.random(in: 0..<280, using: &random)))
        var yaml = "title: \(["Read", "Write", "Task \(number)"].randomElement(using: &random)!)\n"
        yaml += "subject: \(["Math", "Science", "Art", "Music"].randomElement(using: &random)!)\n"
        yaml += "grade: \(["6", "7", "8", "[6, 8]"].randomElement(using: &random)!)\nassigned: \(day)\n"
        yaml += "draft: \(Int.random(in: 0..<8, using: &random) == 0)\n"
        switch Int.random(in: 0..<10, using: &random) {
        case 0: break
        case 1: yaml += "repeat: {every: school day, until: \(CalendarDate(dayNumber: day.dayNumber + 9))}\n"
        default: yaml += "due: \(CalendarDate(dayNumber: day.dayNumber + Int.random(in: 0...12, using: &random)))\n"
        }
        let log = DiagnosticLog()
        return try! Assignment(file: ContentFile(path: "Content/homework/t\(number).md", contentPath: "homework/t\(number).md",
                                                 frontMatter: try! YAMLReader.read(Array(yaml.utf8), path: "x"), body: [], bodyFirstLine: 1),
                               context: context, log: log)
    }

    private static func schedule(of all: [Assignment], at moment: BuildMoment) -> HomeworkSchedule {
        SiteIndex.homeworkSchedule(of: all, site: site, moment: moment, teachers: [], includeDrafts: false)
    }

    /// What the pages of `grades` that show `days`, and every grade's summary, are made of;
    /// the feeds of `feeds` and the calendars of `calendars`.
    private static func described(_ schedule: HomeworkSchedule, grades: [GradeID], days: Set<CalendarDate>, feeds: [GradeID], calendars: [GradeID]) -> String {
        let ids = { (list: [Assignment]) in list.map(\.id).joined(separator: " ") }
        var lines = ["days \(schedule.schoolDays)", "drafts \(schedule.draftCounts.sorted { $0.key.text < $1.key.text })",
                     "subjects \(schedule.subjectOrder.sorted { $0.value < $1.value }.map(\.key))", "any \(schedule.hasAssignments)"]
        for grade in ["6", "7", "8"].map(GradeID.init) {
            let digest = HomeworkDigest(grade: grade, schedule: schedule)
            lines.append("\(grade.text) digest \(String(describing: digest.day)): \(ids(digest.work)) has \(schedule.hasWork(of: grade))")
        }
        for grade in grades {
            for (day, work) in HomeworkDigest(grade: grade, schedule: schedule).upcoming { lines.append("\(grade.text) due \(day): \(ids(work))") }
            for day in days.sorted() + schedule.schoolDays.suffix(HomeworkViews.recentDayCount) {
                lines.append("\(grade.text) \(day): \(ids(schedule.assignments(of: grade, on: day)))")
            }
        }
        for grade in feeds { lines.append("\(grade.text) feed: \(ids(Array(schedule.feedWork(of: grade))))") }
        for grade in calendars { lines.append("\(grade.text) calendar: \(ids(schedule.calendarWork(of: grade)))") }
        return lines.joined(separator: "\n")
    }

    @Test(arguments: [BuildMoment(date: CalendarDate(year: 2027, month: 5, day: 12), time: TimeOfDay(hour: 15, minute: 0)),
                      BuildMoment(date: CalendarDate(year: 2027, month: 5, day: 12), time: TimeOfDay(hour: 9, minute: 0)),
                      BuildMoment(date: CalendarDate(year: 2027, month: 5, day: 15), time: nil)])
    func theAssignmentsTheKeysPickMakeThePagesOfAnEditAsAllOfThemDo(moment: BuildMoment) throws {
        var random = SplitMix(seed: UInt64(moment.date.dayNumber + (moment.time?.hour ?? 0)))
        var all = (0..<900).map { HomeworkKeysTests.assignment($0, using: &random) }
        let calendar = HomeworkKeysTests.site.homework.calendar
        var keys = try #require(HomeworkKeys(all.enumerated().map { ($0, $1) }, fileCount: all.count, calendar: calendar, moment: moment, contextHash: 1))
        var before = HomeworkKeysTests.schedule(of: all, at: moment)
        var picked = 0
        var feedsLeft = 0
        for _ in 0..<60 {
            let places = Array(Set((0..<Int.random(in: 1...2, using: &random)).map { _ in Int.random(in: 0..<all.count, using: &random) }))
            for place in places { all[place] = HomeworkKeysTests.assignment(place, using: &random) }
            let (next, oldRows) = try #require(keys.replacing(places.map { ($0, all[$0]) }, calendar: calendar, through: moment.date))
            // The keys made again are those of the edited assignments put in place.
            let afresh = try #require(HomeworkKeys(all.enumerated().map { ($0, $1) }, fileCount: all.count, calendar: calendar, moment: moment, contextHash: 1))
            #expect(Set(next.rows.map { "\($0.file) \($0.day) \($0.due) \(next.subjects[$0.subject]) \(next.grades(of: $0.grades)) \($0.draft)" })
                    == Set(afresh.rows.map { "\($0.file) \($0.day) \($0.due) \(afresh.subjects[$0.subject]) \(afresh.grades(of: $0.grades)) \($0.draft)" }))

            let whole = HomeworkKeysTests.schedule(of: all, at: moment)
            let outline = next.outline(site: HomeworkKeysTests.site, moment: moment, includeDrafts: false)
            let edited = oldRows + next.rows.filter { places.contains($0.file) }
            let pick = next.pick(showing: edited, outline: outline, site: HomeworkKeysTests.site, moment: moment, includeDrafts: false)
            let files = pick.files.union(places)
            picked += files.count
            let some = files.sorted().flatMap { all[$0].occurrences(in: calendar, through: moment.date) }
            let partial = HomeworkSchedule(site: HomeworkKeysTests.site, moment: moment, some: some, teachers: [], includeDrafts: false, outline: outline)
            let grades = next.grades(of: edited.reduce(UInt64(0)) { $0 | $1.grades })
            let shownDays = Set(edited.map { CalendarDate(dayNumber: $0.day) })
            let (feeds, calendars) = (next.grades(of: pick.feeds), next.grades(of: pick.calendars))
            #expect(HomeworkKeysTests.described(partial, grades: grades, days: shownDays, feeds: feeds, calendars: calendars)
                    == HomeworkKeysTests.described(whole, grades: grades, days: shownDays, feeds: feeds, calendars: calendars))
            // The feeds and calendars left out hold the same work as before, none of it edited.
            let editedPaths = Set(places.map { "Content/homework/t\($0).md" })
            for grade in grades where !feeds.contains(grade) {
                feedsLeft += 1
                #expect(whole.feedWork(of: grade).map(\.id) == before.feedWork(of: grade).map(\.id))
                #expect(!whole.feedWork(of: grade).contains { editedPaths.contains($0.sourcePath) })
            }
            for grade in grades where !calendars.contains(grade) {
                #expect(whole.calendarWork(of: grade).map(\.id) == before.calendarWork(of: grade).map(\.id))
                #expect(!whole.calendarWork(of: grade).contains { editedPaths.contains($0.sourcePath) })
                #expect(!before.calendarWork(of: grade).contains { editedPaths.contains($0.sourcePath) })
            }
            before = whole
            keys = next
        }
        // The point of the keys: far fewer than all of them are read.
        #expect(picked < 60 * all.count * 3 / 4, "\(picked) assignments read for 60 edits of \(all.count)")
        #expect(feedsLeft > 10, "\(feedsLeft) feeds left as they were")
    }

    @Test func keysReadBackAsWrittenAndOnlyForTheirChecksum() throws {
        var random = SplitMix(seed: 3)
        let all = (0..<50).map { HomeworkKeysTests.assignment($0, using: &random) }
        let moment = BuildMoment(date: CalendarDate(year: 2026, month: 12, day: 2), time: nil)
        let keys = try #require(HomeworkKeys(all.enumerated().map { ($0, $1) }, fileCount: all.count, calendar: HomeworkKeysTests.site.homework.calendar,
                                             moment: moment, contextHash: 7))
        let folder = TemporaryFolder()
        let cacheFile = folder.url.path + "/site.cache"
        let checksum = try #require(keys.write(besides: cacheFile))
        #expect(HomeworkKeys.read(besides: cacheFile, checksum: checksum) == keys)
        #expect(HomeworkKeys.read(besides: cacheFile, checksum: checksum &+ 1) == nil)
        // A damaged file is not read.
        var bytes = try #require(FileManager.default.contents(atPath: HomeworkKeys.path(besides: cacheFile)))
        bytes[bytes.count / 2] ^= 0x40
        try bytes.write(to: URL(fileURLWithPath: HomeworkKeys.path(besides: cacheFile)))
        #expect(HomeworkKeys.read(besides: cacheFile, checksum: checksum) == nil)
    }

    /// Keys whose checksum matches but whose rows could not have been written are refused,
    /// not used: each of these once could stop the build (found by reading the decoder as
    /// the cache fuzz target would).
    @Test(arguments: [
        ("65 grades", 65, 1, 0, 20_000, Int.min, 0, UInt64(1)),
        ("no file count", 2, -1, 0, 20_000, Int.min, 0, UInt64(1)),
        ("a file past the count", 2, 1, 1, 20_000, Int.min, 0, UInt64(1)),
        ("a day no date has", 2, 1, 0, Int.max, Int.min, 0, UInt64(1)),
        ("a due day no date has", 2, 1, 0, 20_000, Int.max - 1, 0, UInt64(1)),
        ("a subject past the list", 2, 1, 0, 20_000, Int.min, 1, UInt64(1)),
        ("a grade past the list", 2, 1, 0, 20_000, Int.min, 0, UInt64(4)),
    ])
    func keysThatCannotBeAreRefused(_ label: String, gradeCount: Int, fileCount: Int, file: Int, day: Int, due: Int, subject: Int, grades: UInt64) {
        var writer = BinaryWriter()
        writer.unsigned(1)
        writer.string("2026-12-02")
        writer.integer(fileCount)
        writer.array(["Math"]) { $0.string($1) }
        writer.array((0..<gradeCount).map { "\($0)" }) { $0.string($1) }
        writer.unsigned(1)
        for value in [file, day, due, subject] { writer.integer(value) }
        writer.unsigned(grades)
        writer.bool(false)
        let read = try? BinaryReader.reading(writer.bytes) { reader throws(BinaryReader.Corrupt) in try HomeworkKeys(from: &reader) }
        #expect(read == nil, "\(label)")
        // The same row, as it can be, reads.
        var good = BinaryWriter()
        good.unsigned(1)
        good.string("2026-12-02")
        good.integer(1)
        good.array(["Math"]) { $0.string($1) }
        good.array(["7", "8"]) { $0.string($1) }
        good.unsigned(1)
        for value in [0, 20_000, Int.min, 0] { good.integer(value) }
        good.unsigned(2)
        good.bool(true)
        #expect((try? BinaryReader.reading(good.bytes) { reader throws(BinaryReader.Corrupt) in try HomeworkKeys(from: &reader) })?.rows.count == 1)
    }
}
