import SitegenSupport
import SitegenYAML

/// An assignment's `repeat:`: the work is given again on each matching school day, from
/// `assigned` to `until`, as `{every: school day}` or `{on: [mon, wed]}`.
public struct AssignmentRepeat: Sendable, Hashable {
    public enum Days: Sendable, Hashable {
        case schoolDays
        /// Monday (0) to Sunday (6), each a school day of the calendar.
        case weekdays(Set<Int>)
    }

    public var days: Days
    /// The last day it may be given; nil repeats on until the work's `due`, or for ever.
    public var until: CalendarDate?

    public init(days: Days, until: CalendarDate?) {
        self.days = days
        self.until = until
    }

    static let example = "{every: school day, until: 2027-06-30} or {on: [mon, wed], until: 2027-06-30}"

    public static let keys = KeyTable([
        ContentKey("every", "`school day`", default: "none", "Given on every school day (or `on`, not both).", example: "every: school day"),
        ContentKey("on", "a list of weekdays", default: "none", "Given on these weekdays when they are school days.", example: "on: [mon, wed]"),
        ContentKey("until", "a date", default: "none (a warning)", "The last day it may be given; not before `assigned`.", example: "until: 2027-06-30"),
    ])

    /// Reads the `repeat` of an assignment's front matter; each mistake is an error at it,
    /// and nil.
    static func read(_ fields: FieldReader, assigned: CalendarDate?, due: DateTimeValue?, calendar: SchoolCalendar) -> AssignmentRepeat? {
        guard let node = fields.node("repeat") else { return nil }
        guard node.mapping != nil else {
            fields.log.error(at: node.location, "'repeat' must be a mapping like \(example), found \(node.shortDescription) (docs/homework.md#work-that-repeats)")
            return nil
        }
        let errorsBefore = fields.log.errorCount
        let section = FieldReader(node, keys: fields.nested("repeat"), log: fields.log, emptyLocation: node.location, prefix: "repeat.", memo: fields.memo)
        let until = section.optional("until", CalendarDate.self)
        let days = self.days(section, calendar: calendar)
        section.reportUnknownKeys(what: "assignment front matter")
        if let until, let assigned, until < assigned {
            fields.log.error(at: section.node("until")!.location, "'repeat.until' must not be before 'assigned' (\(assigned)), found '\(until)' (docs/homework.md#work-that-repeats)")
        }
        if let until, let due, due.date < until {
            fields.log.error(at: section.node("until")!.location, "'repeat.until' must not be after 'due' (\(due)), found '\(until)': every time the work is given, it is due then. Leave 'due' out, and each time is due the next school day (docs/homework.md#work-that-repeats)")
        }
        guard let days, fields.log.errorCount == errorsBefore else { return nil }
        if until == nil, due == nil {
            fields.log.warning(at: node.location, "'repeat' has no end: give 'until' with the last day it is given, like until: 2027-06-30 (docs/homework.md#work-that-repeats)")
        }
        return AssignmentRepeat(days: days, until: until)
    }

    private static func days(_ section: FieldReader, calendar: SchoolCalendar) -> Days? {
        let every = section.node("every")
        let on = section.node("on")
        switch (every, on) {
        case (nil, nil):
            section.log.error(at: section.mappingLocation, "'repeat' must give 'every' or 'on', like \(example) (docs/homework.md#work-that-repeats)")
            return nil
        case (_?, _?):
            section.log.error(at: section.keyLocation("on"), "give 'repeat.every' or 'repeat.on', not both (docs/homework.md#work-that-repeats)")
            return nil
        case (let every?, nil):
            let text = every.scalar?.text.lowercased() ?? ""
            guard text == "school day" || text == "school days" else {
                section.log.error(at: every.location, "'repeat.every' must be 'school day', found \(every.shortDescription); for some weekdays, write 'on' instead, like on: [mon, wed] (docs/homework.md#work-that-repeats)")
                return nil
            }
            return .schoolDays
        case (nil, let on?):
            guard let items = on.sequence, !items.isEmpty else {
                section.log.error(at: on.location, "'repeat.on' must be a list of weekdays like [mon, wed], found \(on.shortDescription) (docs/homework.md#work-that-repeats)")
                return nil
            }
            var weekdays: Set<Int> = []
            for item in items {
                let text = item.scalar?.text.lowercased() ?? ""
                guard let day = SchoolCalendar.weekdayNames.firstIndex(where: { $0 == text || $0.prefix(3) == text }) else {
                    section.log.error(at: item.location, "'repeat.on' must list weekdays like monday or mon, found \(item.shortDescription) (docs/homework.md#work-that-repeats)")
                    return nil
                }
                guard calendar.weekdays.contains(day) else {
                    let open = SchoolCalendar.weekdayNames.indices.filter(calendar.weekdays.contains).map { SchoolCalendar.weekdayNames[$0] }
                    section.log.error(at: item.location, "'repeat.on' must list days the school is open ('homework.school_days' in site.yaml: \(open.joined(separator: ", "))), found '\(SchoolCalendar.weekdayNames[day])' (docs/homework.md#work-that-repeats)")
                    return nil
                }
                weekdays.insert(day)
            }
            return .weekdays(weekdays)
        }
    }

    /// Whether the work is given on `day`, a school day.
    func matches(_ day: CalendarDate) -> Bool {
        switch days {
        case .schoolDays: true
        case .weekdays(let weekdays): weekdays.contains(SchoolCalendar.weekday(of: day))
        }
    }
}

extension Boxed where Fields == AssignmentFields {
    /// The assignment as each time it is given, through `through` (the build's day: later
    /// ones are not out yet): itself when it does not repeat. Each time is given on a
    /// school day of `calendar`, has an id of its own (the assignment's and the day's), and
    /// is due as the assignment says, or else on the next school day.
    public func occurrences(in calendar: SchoolCalendar, through: CalendarDate) -> [Assignment] {
        guard let repeats = self.repeats else { return [self] }
        let last = min(through, repeats.until ?? self.due?.date ?? through)
        guard self.assigned <= last else { return [] }
        var result: [Assignment] = []
        for number in self.assigned.dayNumber...last.dayNumber {
            let day = CalendarDate(dayNumber: number)
            guard calendar.isSchoolDay(day), repeats.matches(day) else { continue }
            var fields = box.fields
            fields.assigned = day
            fields.id = fields.id + "-" + day.description
            fields.due = fields.due ?? calendar.nextSchoolDay(after: day).map { DateTimeValue(date: $0) }
            result.append(Assignment(fields))
        }
        return result
    }
}

extension BinaryWriter {
    public mutating func assignmentRepeat(_ value: AssignmentRepeat) {
        switch value.days {
        case .schoolDays:
            integer(-1)
        case .weekdays(let days):
            integer(days.count)
            for day in days.sorted() { integer(day) }
        }
        optional(value.until) { $0.date($1) }
    }
}

extension BinaryReader {
    public mutating func assignmentRepeat() throws(Corrupt) -> AssignmentRepeat {
        let count = try integer()
        let days: AssignmentRepeat.Days
        if count == -1 {
            days = .schoolDays
        } else {
            guard (0...7).contains(count) else { throw Corrupt() }
            var weekdays: Set<Int> = []
            for _ in 0..<count { weekdays.insert(try integer()) }
            days = .weekdays(weekdays)
        }
        let until = try optional { reader throws(Corrupt) in try reader.date() }
        return AssignmentRepeat(days: days, until: until)
    }
}
