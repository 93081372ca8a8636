import Foundation
import SitegenContent
@testable import SitegenPipeline
@testable import SitegenFiles
import SitegenSupport
import SitegenTestSupport
import SitegenYAML
import Testing

@Suite("Homework sentences")
struct HomeworkSentenceTests {
    private static let context = ViewContext(site: Site(node: nil, log: DiagnosticLog()), formats: Formats(language: LanguageTag("en")))

    private func name(_ grade: GradeID) -> String { Self.context.gradeName(grade) }

    @Test func namesNoOneTwoThreeAndMoreSubjectsNaturally() {
        let eighth = GradeID("8")
        let strings = ThemeStrings.english
        #expect(HomeworkSentence.make(strings, who: name(GradeID("6")), subjects: [], tonight: true) == "6th grade has no homework tonight.")
        #expect(HomeworkSentence.make(strings, who: name(eighth), subjects: ["Math"], tonight: true) == "8th grade has homework in Math tonight.")
        #expect(HomeworkSentence.make(strings, who: name(eighth), subjects: ["Math", "History"], tonight: true) == "8th grade has homework in Math and History tonight.")
        #expect(HomeworkSentence.make(strings, who: name(GradeID("7")), subjects: ["Math", "Science", "History"], tonight: true) == "7th grade has homework in Math, Science and History tonight.")
        #expect(HomeworkSentence.make(strings, who: name(GradeID("11")), subjects: ["Math", "Science", "History", "Art"], tonight: true) == "11th grade has homework in Math, Science, History and Art tonight.")
        #expect(HomeworkSentence.make(strings, who: name(GradeID("K")), subjects: ["Reading"], tonight: true) == "Kindergarten has homework in Reading tonight.")
        #expect(HomeworkSentence.make(strings, who: name(GradeID("21")), subjects: [], tonight: false) == "21st grade had no homework last night.")
        #expect(HomeworkSentence.make(strings, who: name(GradeID("2")), subjects: ["Math"], tonight: false) == "2nd grade had homework in Math last night.")
        #expect(HomeworkSentence.make(strings, who: name(GradeID("3")), subjects: [], day: "Wednesday, Nov 25") == "3rd grade had no homework on Wednesday, Nov 25.")
    }
}

/// Assignments made in memory, to see what the schedule picks at a moment.
private func assignment(_ id: String, _ subject: String, grade: String, assigned: CalendarDate, due: DateTimeValue? = nil, draft: Bool = false,
                        title: String? = nil) -> Assignment {
    var yaml = "title: \(title ?? id)\nsubject: \(subject)\ngrade: \(grade)\nassigned: \(assigned)\ndraft: \(draft)\n"
    if let due { yaml += "due: \"\(due)\"\n" }
    return try! Assignment(file: ContentFile(path: "Content/homework/\(id).md", contentPath: "homework/\(id).md",
                                             frontMatter: try! YAMLReader.read(Array(yaml.utf8), path: "x"), body: [], bodyFirstLine: 1),
                           context: HomeworkFixtures.context, log: DiagnosticLog())
}

private enum HomeworkFixtures {
    static let site = Site(node: try! YAMLReader.read(Array("title: School\ntimezone: Asia/Hong_Kong\nhomework:\n  grades: [6, 7, 8]\n  release_time: \"14:00\"\n  subjects: [Math, Science, History]\n".utf8), path: "Content/site.yaml"), log: DiagnosticLog())
    static let context = ModelContext(site: site, teachers: [:], images: ImageLookup(staticFiles: []) { _, _ in nil })
    static let monday = CalendarDate(year: 2026, month: 11, day: 23)
    static let tuesday = CalendarDate(year: 2026, month: 11, day: 24)
    static let wednesday = CalendarDate(year: 2026, month: 11, day: 25)
    static let saturday = CalendarDate(year: 2026, month: 11, day: 28)
    static let all = [
        assignment("a", "History", grade: "8", assigned: monday, due: DateTimeValue(date: tuesday)),
        assignment("b", "Math", grade: "8", assigned: tuesday, due: DateTimeValue(date: wednesday)),
        assignment("c", "Math", grade: "8", assigned: wednesday, due: DateTimeValue(date: CalendarDate(year: 2026, month: 11, day: 26))),
        assignment("d", "History", grade: "8", assigned: wednesday, due: DateTimeValue(date: CalendarDate(year: 2026, month: 11, day: 27), time: TimeOfDay(hour: 8, minute: 15))),
        assignment("e", "Science", grade: "7", assigned: tuesday, due: DateTimeValue(date: CalendarDate(year: 2026, month: 11, day: 27))),
        assignment("f", "Science", grade: "6", assigned: wednesday, draft: true),
    ]

    static func schedule(_ date: CalendarDate, _ time: TimeOfDay?) -> HomeworkSchedule {
        HomeworkSchedule(site: site, moment: BuildMoment(date: date, time: time), all: all, teachers: [], includeDrafts: false)
    }
}

@Suite("Homework schedule")
struct HomeworkScheduleTests {
    @Test func afterTheReleaseTimeTodaysWorkIsTonights() {
        let schedule = HomeworkFixtures.schedule(HomeworkFixtures.wednesday, TimeOfDay(hour: 15, minute: 0))
        #expect(schedule.isTonight)
        #expect(schedule.digestDay == HomeworkFixtures.wednesday)
        #expect(schedule.subjects(ofDay: schedule.assignments(of: GradeID("8"), on: HomeworkFixtures.wednesday)) == ["Math", "History"])
        #expect(schedule.assignments(of: GradeID("6"), on: HomeworkFixtures.wednesday).isEmpty)
        #expect(schedule.draftCounts[GradeID("6")] == 1)
    }

    /// An edit put into a schedule in place is the schedule made afresh of the edited
    /// assignments: after each of a few hundred random edits of subject, grade, day, title
    /// and draft state, alone or two at a time.
    @Test func anEditPutInPlaceMakesTheScheduleMadeAfresh() throws {
        var random = SplitMix(seed: 14)
        let days = (16...27).map { CalendarDate(year: 2026, month: 11, day: $0) }.filter { ![21, 22].contains($0.day) }
        let subjects = ["Math", "Science", "History", "Art", "Music"]
        func make(_ number: Int) -> Assignment {
            let day = days.randomElement(using: &random)!
            return assignment("task-\(number)", subjects.randomElement(using: &random)!, grade: ["6", "7", "8", "[6, 8]"].randomElement(using: &random)!,
                              assigned: day, due: DateTimeValue(date: CalendarDate(dayNumber: day.dayNumber + Int.random(in: 0...6, using: &random))),
                              draft: Int.random(in: 0..<6, using: &random) == 0, title: ["Read", "Write", "Practise", "Task \(number)"].randomElement(using: &random)!)
        }
        var all = (0..<40).map(make)
        let moment = BuildMoment(date: HomeworkFixtures.wednesday, time: TimeOfDay(hour: 15, minute: 0))
        func fresh(_ all: [Assignment]) -> HomeworkSchedule {
            HomeworkSchedule(site: HomeworkFixtures.site, moment: moment, all: all, teachers: [], includeDrafts: false)
        }
        func described(_ schedule: HomeworkSchedule) -> String {
            var lines = ["days \(schedule.schoolDays)", "drafts \(schedule.draftCounts.sorted { $0.key.text < $1.key.text })",
                         "subjects \(schedule.subjectOrder.sorted { $0.value < $1.value }.map(\.key))", "released \(schedule.assignments.map(\.id).sorted())"]
            for grade in ["6", "7", "8"].map(GradeID.init) {
                lines.append("\(grade.text): \(schedule.assignments(of: grade).map { "\($0.id) \($0.title)" })")
                for day in days { lines.append("\(grade.text) \(day): \(schedule.assignments(of: grade, on: day).map(\.id))") }
            }
            return lines.joined(separator: "\n")
        }
        var schedule = fresh(all)
        var inPlace = 0
        for _ in 0..<300 {
            let places = Set((0..<Int.random(in: 1...2, using: &random)).map { _ in Int.random(in: 0..<all.count, using: &random) })
            let old = places.map { all[$0] }
            for place in places {
                let number = Int(all[place].id.dropFirst("task-".count))!
                all[place] = make(number)
            }
            let expected = fresh(all)
            if let replaced = schedule.replacing(old, with: places.map { all[$0] }, includeDrafts: false) {
                inPlace += 1
                #expect(described(replaced) == described(expected))
            }
            schedule = expected
        }
        // Art and Music, which site.yaml does not name, send some edits to a whole schedule.
        #expect(inPlace > 100 && inPlace < 300, "\(inPlace) edits put in place")
    }

    @Test func beforeTheReleaseTimeThePreviousSchoolDayIsLastNight() {
        let schedule = HomeworkFixtures.schedule(HomeworkFixtures.wednesday, TimeOfDay(hour: 13, minute: 30))
        #expect(!schedule.isTonight)
        #expect(schedule.digestDay == HomeworkFixtures.tuesday)
        #expect(schedule.schoolDays == [HomeworkFixtures.monday, HomeworkFixtures.tuesday])
        #expect(schedule.assignments.map(\.id).sorted() == ["a", "b", "e"])
    }

    @Test func aDateAloneMeansAfterTheReleaseTime() {
        let schedule = HomeworkFixtures.schedule(HomeworkFixtures.wednesday, nil)
        #expect(schedule.isTonight)
        #expect(schedule.schoolDays.last == HomeworkFixtures.wednesday)
    }

    @Test func aMomentSettlesToTheLastChangeOfWhatThePagesShow() {
        let day = HomeworkFixtures.wednesday
        let release = TimeOfDay(hour: 14, minute: 0)
        let midnight = BuildMoment(date: day, time: TimeOfDay(hour: 0, minute: 0))
        for time in [TimeOfDay(hour: 0, minute: 0), TimeOfDay(hour: 9, minute: 30), TimeOfDay(hour: 13, minute: 59, second: 59)] {
            #expect(BuildMoment(date: day, time: time).settled(releaseTime: release) == midnight)
        }
        for time in [TimeOfDay(hour: 14, minute: 0), TimeOfDay(hour: 15, minute: 1), TimeOfDay(hour: 23, minute: 59)] {
            #expect(BuildMoment(date: day, time: time).settled(releaseTime: release) == BuildMoment(date: day, time: nil))
        }
        #expect(BuildMoment(date: day, time: nil).settled(releaseTime: release) == BuildMoment(date: day, time: nil))
        #expect(BuildMoment(date: day, time: TimeOfDay(hour: 0, minute: 0)).settled(releaseTime: TimeOfDay(hour: 0, minute: 0)) == BuildMoment(date: day, time: nil))
        // What the pages show of a settled moment is what they showed of the moment itself.
        for time in [TimeOfDay(hour: 9, minute: 30), TimeOfDay(hour: 15, minute: 1)] {
            let exact = HomeworkFixtures.schedule(day, time)
            let settled = BuildMoment(date: day, time: time).settled(releaseTime: release)
            let fromSettled = HomeworkFixtures.schedule(settled.date, settled.time)
            #expect(exact.isTonight == fromSettled.isTonight)
            #expect(exact.digestDay == fromSettled.digestDay)
            #expect(exact.assignments.map(\.id) == fromSettled.assignments.map(\.id))
            #expect(exact.upcoming(of: GradeID("8"), besides: exact.digestDay).flatMap { $0.assignments.map(\.id) } == fromSettled.upcoming(of: GradeID("8"), besides: fromSettled.digestDay).flatMap { $0.assignments.map(\.id) })
        }
    }

    /// The instant a settled moment names as its next change is the first at which the
    /// clock settles to another moment: a minute before it, still the same one. Through a
    /// day of each kind in zones east and west of UTC, on days the clocks change.
    @Test(arguments: ["Asia/Hong_Kong", "America/New_York", "Europe/Berlin", "UTC", "Pacific/Auckland"])
    func aSettledMomentNamesTheInstantItMovesOn(zone name: String) throws {
        let zone = try #require(TimeZone(identifier: name))
        for release in [TimeOfDay(hour: 14, minute: 0), TimeOfDay(hour: 0, minute: 0), TimeOfDay(hour: 7, minute: 30)] {
            // 2026-03-08 and 2026-11-01: New York's changes; 2026-03-29 Berlin's; 2026-04-05 Auckland's.
            for day in ["2026-03-07", "2026-03-08", "2026-03-29", "2026-04-05", "2026-11-01", "2026-12-31"] {
                for time in [TimeOfDay(hour: 0, minute: 0), TimeOfDay(hour: 6, minute: 59), TimeOfDay(hour: 13, minute: 59), TimeOfDay(hour: 20, minute: 15)] {
                    let date = try #require(CalendarDate(parsing: day[...]))
                    let instant = BuildMoment(date: date, time: time).instant(in: zone)
                    let settled = BuildMoment.now(in: zone, at: instant).settled(releaseTime: release)
                    let next = settled.nextChange(releaseTime: release, in: zone)
                    let context = "\(name), \(day) \(time), release \(release)"
                    #expect(next > instant, "\(context)")
                    #expect(BuildMoment.now(in: zone, at: next.addingTimeInterval(-60)).settled(releaseTime: release) == settled, "\(context)")
                    #expect(BuildMoment.now(in: zone, at: next).settled(releaseTime: release) != settled, "\(context)")
                }
            }
        }
    }

    @Test func aWeekendNightHasNoHomeworkAndTheArchiveSkipsIt() {
        let schedule = HomeworkFixtures.schedule(HomeworkFixtures.saturday, TimeOfDay(hour: 18, minute: 0))
        #expect(schedule.digestDay == HomeworkFixtures.saturday)
        #expect(schedule.assignments(of: GradeID("8"), on: HomeworkFixtures.saturday).isEmpty)
        #expect(schedule.neighbours(of: HomeworkFixtures.tuesday) == (HomeworkFixtures.monday, HomeworkFixtures.wednesday))
    }

    @Test func groupsUpcomingWorkByDueDateLeavingOutTonights() {
        let schedule = HomeworkFixtures.schedule(HomeworkFixtures.tuesday, TimeOfDay(hour: 15, minute: 0))
        let upcoming = schedule.upcoming(of: GradeID("7"), besides: schedule.digestDay)
        #expect(upcoming.map(\.day) == [])
        let later = HomeworkFixtures.schedule(HomeworkFixtures.wednesday, TimeOfDay(hour: 15, minute: 0))
        #expect(later.upcoming(of: GradeID("7"), besides: later.digestDay).map { $0.day.description } == ["2026-11-27"])
        #expect(later.upcoming(of: GradeID("8"), besides: later.digestDay).isEmpty)
        let morning = HomeworkFixtures.schedule(HomeworkFixtures.wednesday, TimeOfDay(hour: 9, minute: 0))
        #expect(morning.upcoming(of: GradeID("8"), besides: morning.digestDay).isEmpty, "last night's work due today is shown as last night's")
    }
}

@Suite("Calendars and feeds")
struct SubscriptionFormatTests {
    @Test func escapesTextAndFoldsLinesAt75Octets() {
        #expect(ICalendar.escape("a,b;c\\d\ne") == "a\\,b\\;c\\\\d\\ne")
        let line = "DESCRIPTION:" + String(repeating: "é", count: 60)
        let folded = String(decoding: ICalendar.fold(line), as: UTF8.self)
        let lines = folded.components(separatedBy: "\r\n").dropLast()
        #expect(lines.allSatisfy { $0.utf8.count <= 75 })
        #expect(lines.dropFirst().allSatisfy { $0.hasPrefix(" ") })
        #expect(lines.enumerated().map { $0.offset == 0 ? $0.element : String($0.element.dropFirst()) }.joined() == line)
    }

    @Test func writesAllDayAndTimedEventsWithTheirTimeZone() {
        let calendar = ICalendar(name: "8th grade", description: "Due dates", timeZone: TimeZone(identifier: "America/New_York")!, events: [
            .init(uid: "a@x", stamp: 0, due: DateTimeValue(date: CalendarDate(year: 2026, month: 3, day: 10)), summary: "Math: Fractions, part 1", description: "", url: nil, categories: nil),
            .init(uid: "b@x", stamp: 0, due: DateTimeValue(date: CalendarDate(year: 2026, month: 3, day: 9), time: TimeOfDay(hour: 8, minute: 15)), summary: "Quiz", description: "x", url: "https://x/", categories: nil),
        ])
        let text = String(decoding: calendar.render(), as: UTF8.self)
        #expect(text.contains("DTSTART;VALUE=DATE:20260310\r\nDTEND;VALUE=DATE:20260311\r\n"))
        #expect(text.contains("DTSTART;TZID=America/New_York:20260309T081500\r\n"))
        #expect(text.contains("SUMMARY:Math: Fractions\\, part 1\r\n"))
        #expect(text.contains("BEGIN:DAYLIGHT\r\nDTSTART:20260308T020000\r\nTZOFFSETFROM:-0500\r\nTZOFFSETTO:-0400\r\n"))
        #expect(text.contains("BEGIN:STANDARD\r\nDTSTART:20261101T020000\r\nTZOFFSETFROM:-0400\r\nTZOFFSETTO:-0500\r\n"))
        #expect(text.hasPrefix("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n") && text.hasSuffix("END:VCALENDAR\r\n"))
    }

    @Test func formatsInstantsInTheSitesOffset() {
        let instant = CalendarDate(year: 2026, month: 11, day: 25).dayNumber * 86_400 + 6 * 3600
        #expect(RFC3339.format(instant, in: TimeZone(identifier: "Asia/Hong_Kong")!) == "2026-11-25T14:00:00+08:00")
        #expect(RFC3339.format(instant, in: TimeZone(identifier: "UTC")!) == "2026-11-25T06:00:00Z")
        #expect(RFC3339.format(instant + 59, in: TimeZone(identifier: "America/St_Johns")!) == "2026-11-25T02:30:59-03:30")
        #expect(RFC3339.format(instant, in: TimeZone(identifier: "Asia/Kathmandu")!) == "2026-11-25T11:45:00+05:45")
        #expect(RFC3339.format(-1, in: TimeZone(identifier: "UTC")!) == "1969-12-31T23:59:59Z")
        let early = CalendarDate(year: 999, month: 1, day: 2).dayNumber * 86_400 + 3_723
        #expect(RFC3339.format(early, in: TimeZone(identifier: "UTC")!) == "0999-01-02T01:02:03Z")
        #expect(XML.escape("<a href=\"x\">Tom & Jerry's</a>\u{1}") == "&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&apos;s&lt;/a&gt;")
        #expect(XML.escape("奶茶\u{FFFE}\t\u{FFFF}\u{FFFD}\u{EFBF}\r\n\u{0}é") == "奶茶\t\u{FFFD}\u{EFBF}\r\né")
        #expect(JSONString.quote("Plain name, 2026-11-25") == "\"Plain name, 2026-11-25\"")
        #expect(JSONString.quote("</script>\u{2028}\"\\\n奶茶") == "\"\\u003c/script\\u003e\\u2028\\\"\\\\\\n奶茶\"")
    }
}
