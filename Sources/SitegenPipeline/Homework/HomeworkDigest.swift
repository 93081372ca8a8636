import SitegenContent

/// What a grade's page and the summary lead with at the build's moment, by the school
/// calendar: tonight's work after the release time; before it, the last school day's; on a
/// day off, what is due on the next school day.
public struct HomeworkDigest: Sendable {
    public enum Kind: Sendable {
        case tonight(tomorrowOff: SchoolCalendar.Holiday?)
        case lastNight
        /// The last school day was not yesterday: Monday morning, after a holiday.
        case lastSchoolDay
        case dayOff(SchoolCalendar.Holiday?)
    }

    public var grade: GradeID
    public var kind: Kind
    /// The day whose work is shown: the digest day, or on a day off the next school day.
    public var day: CalendarDate?
    /// Whether `day` is a day of the archive, with its page.
    public var isArchiveDay: Bool
    public var work: [Assignment]
    public var upcoming: [(day: CalendarDate, assignments: [Assignment])]
    private let today: CalendarDate
    private let subjects: [String]

    public init(grade: GradeID, schedule: HomeworkSchedule) {
        self.grade = grade
        let calendar = schedule.site.homework.calendar
        today = schedule.moment.date
        if !calendar.isSchoolDay(today) {
            upcoming = schedule.upcoming(of: grade, besides: nil)
            let next = calendar.nextSchoolDay(after: today)
            kind = .dayOff(calendar.holiday(on: today))
            day = next
            isArchiveDay = false
            work = upcoming.first { $0.day == next }?.assignments ?? []
            upcoming.removeAll { $0.day == next }
        } else {
            upcoming = schedule.upcoming(of: grade, besides: schedule.digestDay)
            day = schedule.digestDay
            work = day.map { schedule.assignments(of: grade, on: $0) } ?? []
            isArchiveDay = day.map { schedule.schoolDays.contains($0) } ?? false
            if schedule.isTonight {
                kind = .tonight(tomorrowOff: calendar.holiday(on: CalendarDate(dayNumber: today.dayNumber + 1)))
            } else if let day, day.dayNumber != today.dayNumber - 1 {
                kind = .lastSchoolDay
            } else {
                kind = .lastNight
            }
        }
        subjects = schedule.subjects(ofDay: work)
    }

    /// The heading of the work shown.
    public func label(_ strings: ThemeStrings) -> String {
        switch kind {
        case .tonight: strings.text("label.tonight")
        case .lastNight: strings.text("label.lastNight")
        case .lastSchoolDay: strings.text("label.lastSchoolDay")
        case .dayOff: strings.text("label.nextSchoolDay")
        }
    }

    /// "8th grade has homework in Math and History tonight."
    public func sentence(_ context: ViewContext) -> String {
        let (strings, name) = (context.strings, context.gradeName(grade))
        switch kind {
        case .tonight(let holiday):
            let tonight = HomeworkSentence.make(strings, who: name, subjects: subjects, tonight: true)
            return holiday.map { tonight + " " + HomeworkSentence.noSchoolTomorrow(strings, $0) } ?? tonight
        case .lastNight:
            return HomeworkSentence.make(strings, who: name, subjects: subjects, tonight: false)
        case .lastSchoolDay:
            return HomeworkSentence.make(strings, who: name, subjects: subjects, day: day.map(context.formats.weekdayDate) ?? "")
        case .dayOff(let holiday):
            return HomeworkSentence.dayOff(strings, who: name, holiday: holiday, due: subjects, next: day.map { context.relativeDay($0, from: today) })
        }
    }
}
