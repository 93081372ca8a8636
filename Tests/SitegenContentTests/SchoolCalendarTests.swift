import Foundation
import SitegenContent
import SitegenSupport
import SitegenYAML
import Testing

@Suite("School calendar")
struct SchoolCalendarTests {
    private func site(_ homework: String) -> (Site, [String]) {
        let log = DiagnosticLog()
        let node = try! YAMLReader.read(Array("title: School\nhomework:\n  grades: [7]\n\(homework)".utf8), path: Site.path)
        return (Site(node: node, log: log), log.entries.map(\.description))
    }

    private func day(_ text: String) -> CalendarDate { CalendarDate(parsing: text[...])! }

    @Test func opensMondayToFridayUnlessToldOtherwise() {
        let calendar = site("").0.homework.calendar
        #expect(SchoolCalendar.weekday(of: day("2026-12-07")) == 0)
        #expect(SchoolCalendar.weekday(of: day("1969-12-28")) == 6)
        #expect(calendar.isSchoolDay(day("2026-12-04")) && !calendar.isSchoolDay(day("2026-12-05")) && !calendar.isSchoolDay(day("2026-12-06")))
        #expect(calendar.nextSchoolDay(after: day("2026-12-04")) == day("2026-12-07"))
        #expect(calendar.previousSchoolDay(before: day("2026-12-07")) == day("2026-12-04"))
        let saturdays = site("  school_days: [mon, tue, wed, thu, fri, Saturday]\n").0.homework.calendar
        #expect(saturdays.isSchoolDay(day("2026-12-05")) && !saturdays.isSchoolDay(day("2026-12-06")))
    }

    @Test func readsHolidaysAsDaysAndRuns() {
        let (site, problems) = site("""
              holidays:
                - 2026-12-08
                - {date: 2027-04-05, name: Ching Ming Festival}
                - {from: 2027-02-05, to: 2027-02-12, name: Chinese New Year}

            """)
        #expect(problems == [])
        let calendar = site.homework.calendar
        #expect(calendar.holiday(on: day("2026-12-08")) == SchoolCalendar.Holiday(first: day("2026-12-08"), last: day("2026-12-08"), name: nil))
        #expect(calendar.holiday(on: day("2027-02-09"))?.name == "Chinese New Year")
        #expect(!calendar.isSchoolDay(day("2027-02-05")) && !calendar.isSchoolDay(day("2027-02-12")) && calendar.isSchoolDay(day("2027-02-15")))
        #expect(calendar.nextSchoolDay(after: day("2027-02-04")) == day("2027-02-15"))
    }

    @Test func reportsEachWrongEntryAtIt() {
        let (_, problems) = site("""
              school_days: [monday, funday]
              holidays:
                - tomorrow
                - {from: 2027-02-12, to: 2027-02-05}
                - {name: Sports Day}
                - {date: 2027-04-05, nmae: Ching Ming}

            """)
        #expect(problems == [
            "Content/site.yaml:4:25: error: 'homework.school_days' must list weekdays like monday or mon, found 'funday'",
            "Content/site.yaml:6:7: error: a holiday in 'homework.holidays' must be a date like 2027-02-08, or a mapping like {from: 2027-02-05, to: 2027-02-12, name: Chinese New Year}, found 'tomorrow'",
            "Content/site.yaml:7:30: error: 'homework.holidays.to' must not be before 'from' (2027-02-12), found '2027-02-05'",
            "Content/site.yaml:8:7: error: a holiday in 'homework.holidays' must give 'date', or 'from' and 'to', like {from: 2027-02-05, to: 2027-02-12, name: Chinese New Year}",
            "Content/site.yaml:9:26: warning: unknown key 'homework.holidays.nmae' in site.yaml; did you mean 'homework.holidays.name'?",
        ])
        #expect(site("  school_days: weekdays\n").1 == [
            "Content/site.yaml:4:16: error: 'homework.school_days' must be a list of weekdays like [monday, tuesday, wednesday, thursday, friday], found 'weekdays'",
        ])
    }
}
