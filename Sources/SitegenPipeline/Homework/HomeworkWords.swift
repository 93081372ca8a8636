import SitegenContent

/// The words of dates and grades that come from the theme's strings rather than from the
/// language's calendar: "today", "Due Monday", "6th grade".
extension ViewContext {
    /// How the site names `grade`: its name in site.yaml, else the theme's words ("6th
    /// grade", "Kindergarten", "六年級").
    public func gradeName(_ grade: GradeID) -> String {
        if let name = site.homework.gradeNames[grade] { return name }
        if grade.text.uppercased() == "K" { return strings.text("grade.kindergarten") }
        guard let number = Int(grade.text) else { return strings.text("grade.other", ["id": grade.text]) }
        return strings.text("grade.number", ["number": "\(number)", "ordinal": GradeNames.ordinal(number)])
    }

    /// "today", "tomorrow" or "Friday, Dec 4". With the school calendar, the next school
    /// day within the week is its weekday alone: on Friday, work due Monday is due
    /// "Monday".
    public func relativeDay(_ day: CalendarDate, from today: CalendarDate) -> String {
        switch day.dayNumber - today.dayNumber {
        case 0: strings.text("today")
        case 1: strings.text("tomorrow")
        case 2...6 where site.homework.calendar.nextSchoolDay(after: today) == day: formats.weekday(day)
        default: formats.weekdayDate(day)
        }
    }

    /// "tomorrow", "Monday, 8:15 AM", "Friday, Dec 4, 8:15 AM".
    public func dueText(_ due: DateTimeValue, from today: CalendarDate) -> String {
        let day = relativeDay(due.date, from: today)
        guard let time = due.time else { return day }
        return strings.text("dayAndTime", ["day": day, "time": formats.time(time)])
    }

    /// "Every Monday and Wednesday until Wednesday, Jun 30": when work that repeats is given.
    public func repeatText(_ repeats: AssignmentRepeat) -> String {
        let every: String
        switch repeats.days {
        case .schoolDays:
            every = strings.text("repeats.schoolDays")
        case .weekdays(let days):
            // 1970-01-05 was a Monday: the weekday's name in the site's language.
            let names = days.sorted().map { formats.weekday(CalendarDate(dayNumber: 4 + $0)) }
            every = strings.text("repeats.weekdays", ["days": strings.list(names)])
        }
        guard let until = repeats.until else { return every }
        return strings.text("repeats.until", ["every": every, "day": formats.weekdayDate(until)])
    }

    /// The homework's title: site.yaml's, else the theme's word.
    public var homeworkTitle: String {
        site.homework.writtenTitle ?? strings.text("homework")
    }
}
