import SitegenContent

/// The due date a post's words give, when they give exactly one: "due Friday", "due on
/// 2026-03-12", "due 12 March", "for tomorrow". A weekday is the next one after the day the
/// work is given; "tomorrow" is the next day, and must be a school day. Two dates, a date
/// that is no school day, or one before the work is given, give none: a wrong due date is
/// worse than none.
public enum DueDates {
    public static func find(in text: String, assigned: CalendarDate, calendar: SchoolCalendar) -> CalendarDate? {
        let lowered = text.lowercased()
        var found: Set<CalendarDate> = []
        var refused = false
        func take(_ day: CalendarDate?) {
            guard let day, day >= assigned, calendar.isSchoolDay(day) else {
                refused = true
                return
            }
            found.insert(day)
        }
        let weekdays = SchoolCalendar.weekdayNames.joined(separator: "|")
        for match in lowered.matches(of: try! Regex("\\bdue(?:\\s+(?:on|by|next))?\\s+(\(weekdays))\\b")) {
            let name = String(match.output[1].substring!)
            let weekday = SchoolCalendar.weekdayNames.firstIndex(of: name)!
            let ahead = (weekday - SchoolCalendar.weekday(of: assigned) + 7) % 7
            take(CalendarDate(dayNumber: assigned.dayNumber + (ahead == 0 ? 7 : ahead)))
        }
        for match in lowered.matches(of: #/\bdue(?:\s+(?:on|by))?\s+(\d{4})-(\d{2})-(\d{2})\b/#) {
            let day = CalendarDate(year: Int(match.1)!, month: Int(match.2)!, day: Int(match.3)!)
            take((try? day.check()) == nil ? nil : day)
        }
        let months = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"]
        for match in lowered.matches(of: try! Regex("\\bdue(?:\\s+(?:on|by))?\\s+(\\d{1,2})\\s+(\(months.joined(separator: "|")))\\b")) {
            let number = Int(match.output[1].substring!)!
            let month = months.firstIndex(of: String(match.output[2].substring!))! + 1
            var day = CalendarDate(year: assigned.year, month: month, day: number)
            if day < assigned { day = CalendarDate(year: assigned.year + 1, month: month, day: number) }
            take((try? day.check()) == nil ? nil : day)
        }
        if lowered.contains(#/\b(?:due|for)\s+tomorrow\b/#) {
            take(CalendarDate(dayNumber: assigned.dayNumber + 1))
        }
        return found.count == 1 && !refused ? found.first : nil
    }
}
