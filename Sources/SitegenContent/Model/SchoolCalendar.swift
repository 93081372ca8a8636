import SitegenSupport
import SitegenYAML

/// `homework.school_days` and `homework.holidays`: which days the school is open, so that
/// a weekend or a holiday reads as a day off, and "due Monday" counts school days.
public struct SchoolCalendar: Sendable, Hashable {
    /// A day or a run of days the school is closed, with the name it is known by.
    public struct Holiday: Sendable, Hashable {
        public var first: CalendarDate
        public var last: CalendarDate
        public var name: String?

        public init(first: CalendarDate, last: CalendarDate, name: String?) {
            self.first = first
            self.last = last
            self.name = name
        }
    }

    /// The weekdays the school is open, Monday (0) to Sunday (6).
    public var weekdays: Set<Int>
    /// In the order written.
    public var holidays: [Holiday]

    public static let mondayToFriday = SchoolCalendar(weekdays: Set(0...4), holidays: [])

    public init(weekdays: Set<Int>, holidays: [Holiday]) {
        self.weekdays = weekdays
        self.holidays = holidays
    }

    public static let weekdayNames = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]

    /// Monday (0) to Sunday (6); 1970-01-01, day 0, was a Thursday.
    public static func weekday(of day: CalendarDate) -> Int {
        (day.dayNumber + 3).floorModulo(7)
    }

    /// The holiday `day` is in, when it is in one.
    public func holiday(on day: CalendarDate) -> Holiday? {
        holidays.first { $0.first <= day && day <= $0.last }
    }

    public func isSchoolDay(_ day: CalendarDate) -> Bool {
        weekdays.contains(SchoolCalendar.weekday(of: day)) && holiday(on: day) == nil
    }

    /// The first school day after `day`, within a year (a calendar with no school day has
    /// none).
    public func nextSchoolDay(after day: CalendarDate) -> CalendarDate? {
        (1...366).lazy.map { CalendarDate(dayNumber: day.dayNumber + $0) }.first(where: isSchoolDay)
    }

    /// The last school day before `day`, within a year.
    public func previousSchoolDay(before day: CalendarDate) -> CalendarDate? {
        (1...366).lazy.map { CalendarDate(dayNumber: day.dayNumber - $0) }.first(where: isSchoolDay)
    }
}

extension Int {
    fileprivate func floorModulo(_ divisor: Int) -> Int {
        let remainder = self % divisor
        return remainder < 0 ? remainder + divisor : remainder
    }
}

extension SchoolCalendar {
    static let schoolDaysExpectation = "a list of weekdays like [monday, tuesday, wednesday, thursday, friday]"
    static let holidayExpectation = "a date like 2027-02-08, or a mapping like {from: 2027-02-05, to: 2027-02-12, name: Chinese New Year}"

    /// Reads `school_days` and `holidays` of site.yaml's `homework:`; a wrong entry is an
    /// error at it, and is left out.
    public init(_ section: FieldReader) {
        self = .mondayToFriday
        if let node = section.node("school_days") {
            if let items = node.sequence {
                var days: Set<Int> = []
                for item in items {
                    let text = item.scalar?.text.lowercased() ?? ""
                    guard let day = SchoolCalendar.weekdayNames.firstIndex(where: { $0 == text || $0.prefix(3) == text }) else {
                        section.log.error(at: item.location, "'\(section.name("school_days"))' must list weekdays like monday or mon, found \(item.shortDescription)")
                        continue
                    }
                    days.insert(day)
                }
                weekdays = days
            } else {
                section.log.error(at: node.location, "'\(section.name("school_days"))' must be \(SchoolCalendar.schoolDaysExpectation), found \(node.shortDescription)")
            }
        }
        guard let node = section.node("holidays") else { return }
        guard let items = node.sequence else {
            section.log.error(at: node.location, "'\(section.name("holidays"))' must be a list of holidays, each \(SchoolCalendar.holidayExpectation), found \(node.shortDescription)")
            return
        }
        holidays = items.compactMap { SchoolCalendar.holiday(item: $0, section: section) }
    }

    private static func holiday(item: YAMLNode, section: FieldReader) -> Holiday? {
        if item.mapping == nil {
            guard let day = try? CalendarDate(node: item) else {
                section.log.error(at: item.location, "a holiday in '\(section.name("holidays"))' must be \(holidayExpectation), found \(item.shortDescription)")
                return nil
            }
            return Holiday(first: day, last: day, name: nil)
        }
        let errorsBefore = section.log.entries.count { $0.severity == .error }
        let fields = FieldReader(item, keys: holidayKeys, log: section.log, emptyLocation: item.location, prefix: section.name("holidays") + ".", memo: section.memo)
        let name = fields.optionalText("name")
        let single = fields.optional("date", CalendarDate.self)
        let from = fields.optional("from", CalendarDate.self)
        let to = fields.optional("to", CalendarDate.self)
        fields.reportUnknownKeys(what: "site.yaml")
        switch (single, from, to) {
        case (let day?, nil, nil):
            return Holiday(first: day, last: day, name: name)
        case (nil, let first?, let last?):
            guard first <= last else {
                section.log.error(at: fields.node("to")!.location, "'\(fields.name("to"))' must not be before 'from' (\(first)), found '\(last)'")
                return nil
            }
            return Holiday(first: first, last: last, name: name)
        default:
            // A date written wrong is its own error already.
            if section.log.entries.count(where: { $0.severity == .error }) == errorsBefore {
                section.log.error(at: item.location, "a holiday in '\(section.name("holidays"))' must give 'date', or 'from' and 'to', like {from: 2027-02-05, to: 2027-02-12, name: Chinese New Year}")
            }
            return nil
        }
    }

    public static let holidayKeys = KeyTable([
        ContentKey("date", "a date", default: "none", "The one day of the holiday.", example: "date: 2027-04-05"),
        ContentKey("from", "a date", default: "none", "Its first day, with `to`.", example: "from: 2027-02-05"),
        ContentKey("to", "a date", default: "none", "Its last day.", example: "to: 2027-02-12"),
        ContentKey("name", "text", default: "none", "What it is called: \"No school tomorrow: Chinese New Year\".", example: "name: Chinese New Year"),
    ])
}
