import Foundation
import SitegenSupport
import SitegenYAML

public struct CalendarDate: FrontMatterValue, Hashable, Comparable, Sendable, CustomStringConvertible {
    public var year: Int
    public var month: Int
    public var day: Int

    public static var expectation: String { "a date like 2026-12-01" }

    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    public init(node: YAMLNode) throws(ValueProblem) {
        guard let scalar = node.scalar else { throw .mismatch }
        guard let date = CalendarDate(parsing: scalar.text[...]) else { throw .mismatch }
        try date.check()
        self = date
    }

    /// Reads exactly `YYYY-MM-DD` without checking that the day exists.
    public init?(parsing text: Substring) {
        // Byte by byte: every assignment has two or three dates.
        guard text.utf8.count == 10,
              let year = Self.digits(text.utf8, 0..<4), let month = Self.digits(text.utf8, 5..<7), let day = Self.digits(text.utf8, 8..<10),
              text.utf8[text.utf8.index(text.utf8.startIndex, offsetBy: 4)] == UInt8(ascii: "-"),
              text.utf8[text.utf8.index(text.utf8.startIndex, offsetBy: 7)] == UInt8(ascii: "-")
        else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// The number the ASCII digits at `offsets` of `bytes` write, or nil if any is not a digit.
    public static func digits(_ bytes: Substring.UTF8View, _ offsets: Range<Int>) -> Int? {
        var value = 0
        for offset in offsets {
            let byte = bytes[bytes.index(bytes.startIndex, offsetBy: offset)]
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    public func check() throws(ValueProblem) {
        guard (1...12).contains(month) else {
            throw .invalid("must be a real calendar day, found '\(self)': there is no month \(month)")
        }
        let days = CalendarDate.days(inMonth: month, year: year)
        guard (1...days).contains(day) else {
            throw .invalid("must be a real calendar day, found '\(self)': \(CalendarDate.monthNames[month - 1]) \(year) has \(days) days")
        }
    }

    public static let monthNames = ["January", "February", "March", "April", "May", "June", "July",
                             "August", "September", "October", "November", "December"]

    public static func days(inMonth month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    public static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    public var description: String {
        // Written straight into a small string rather than three padded numbers joined:
        // pages print thousands of dates.
        guard (0...9999).contains(year) else { return year.zeroPadded(4) + "-" + month.zeroPadded(2) + "-" + day.zeroPadded(2) }
        return String(unsafeUninitializedCapacity: 10) { bytes in
            func digit(_ value: Int) -> UInt8 { UInt8(ascii: "0") + UInt8(value % 10) }
            bytes[0] = digit(year / 1000)
            bytes[1] = digit(year / 100)
            bytes[2] = digit(year / 10)
            bytes[3] = digit(year)
            bytes[4] = UInt8(ascii: "-")
            bytes[5] = digit(month / 10)
            bytes[6] = digit(month)
            bytes[7] = UInt8(ascii: "-")
            bytes[8] = digit(day / 10)
            bytes[9] = digit(day)
            return 10
        }
    }

    /// Days since 1970-01-01, for weekday and distance arithmetic.
    public var dayNumber: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let monthIndex = (month + 9) % 12
        let dayOfYear = (153 * monthIndex + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}

/// `HH:MM` on a 24-hour clock.
public struct TimeOfDay: FrontMatterValue, Hashable, Comparable, Sendable, CustomStringConvertible {
    public var hour: Int
    public var minute: Int
    public var second: Int = 0

    public static var expectation: String { "a time like 14:00" }

    public init(hour: Int, minute: Int, second: Int = 0) {
        self.hour = hour
        self.minute = minute
        self.second = second
    }

    public init(node: YAMLNode) throws(ValueProblem) {
        guard let scalar = node.scalar, let time = TimeOfDay(parsing: scalar.text[...]) else { throw .mismatch }
        self = time
    }

    public init?(parsing text: Substring) {
        let bytes = text.utf8
        guard bytes.count == 5 || bytes.count == 8,
              let hour = CalendarDate.digits(bytes, 0..<2), let minute = CalendarDate.digits(bytes, 3..<5), hour < 24, minute < 60,
              bytes[bytes.index(bytes.startIndex, offsetBy: 2)] == UInt8(ascii: ":")
        else { return nil }
        var second = 0
        if bytes.count == 8 {
            guard bytes[bytes.index(bytes.startIndex, offsetBy: 5)] == UInt8(ascii: ":"), let found = CalendarDate.digits(bytes, 6..<8), found < 60 else { return nil }
            second = found
        }
        self.init(hour: hour, minute: minute, second: second)
    }

    public static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.hour, lhs.minute, lhs.second) < (rhs.hour, rhs.minute, rhs.second)
    }

    public var description: String {
        hour.zeroPadded(2) + ":" + minute.zeroPadded(2) + (second == 0 ? "" : ":" + second.zeroPadded(2))
    }

    public var secondsIntoDay: Int { hour * 3600 + minute * 60 + second }
}

/// A date, optionally with a time and a UTC offset: `2026-12-01`, `2026-12-01T08:00`,
/// `2026-12-01T08:00+08:00`. Without an offset it is read in the site's time zone.
public struct DateTimeValue: FrontMatterValue, Hashable, Sendable, CustomStringConvertible {
    public var date: CalendarDate
    public var time: TimeOfDay?
    public var offsetSeconds: Int?

    /// The same words as for a plain date: most fields are dates, and the time is an extra.
    public static var expectation: String { "a date like 2026-12-01" }

    public init(date: CalendarDate, time: TimeOfDay? = nil, offsetSeconds: Int? = nil) {
        self.date = date
        self.time = time
        self.offsetSeconds = offsetSeconds
    }

    public init(node: YAMLNode) throws(ValueProblem) {
        guard let scalar = node.scalar else { throw .mismatch }
        let text = scalar.text
        let separator = text.firstIndex { $0 == "T" || $0 == " " || $0 == "t" }
        guard let date = CalendarDate(parsing: text[..<(separator ?? text.endIndex)]) else { throw .mismatch }
        try date.check()
        self.date = date
        guard let separator else { return }
        // The date was right: what is wrong is the time after it, which the words for a
        // plain date would not tell.
        func timeProblem() -> ValueProblem {
            .invalid("must be a date like 2026-12-01 or a date and time like 2026-12-01T08:00 or 2026-12-01T08:00+08:00, found '\(text)'")
        }
        var rest = text[text.index(after: separator)...]
        if rest.hasSuffix("Z") || rest.hasSuffix("z") {
            offsetSeconds = 0
            rest = rest.dropLast()
        } else if let sign = rest.lastIndex(where: { $0 == "+" || $0 == "-" }) {
            let offsetText = rest[rest.index(after: sign)...]
            guard let offset = TimeOfDay(parsing: offsetText), offset.second == 0, offset.hour <= 14 else { throw timeProblem() }
            offsetSeconds = (rest[sign] == "-" ? -1 : 1) * offset.secondsIntoDay
            rest = rest[..<sign]
        }
        guard let time = TimeOfDay(parsing: rest) else { throw timeProblem() }
        self.time = time
    }

    public var description: String {
        var text = date.description
        if let time { text += "T" + time.description }
        if let offsetSeconds {
            text += offsetSeconds == 0 ? "Z" : (offsetSeconds < 0 ? "-" : "+") + (abs(offsetSeconds) / 3600).zeroPadded(2) + ":" + (abs(offsetSeconds) % 3600 / 60).zeroPadded(2)
        }
        return text
    }

    /// Seconds since 1970 in UTC, the local parts read in `zone` when no offset was written.
    public func instant(in zone: TimeZone) -> Int {
        let local = date.dayNumber * 86_400 + (time?.secondsIntoDay ?? 0)
        if let offsetSeconds { return local - offsetSeconds }
        let guess = Date(timeIntervalSince1970: TimeInterval(local))
        let offset = zone.secondsFromGMT(for: guess.addingTimeInterval(TimeInterval(-zone.secondsFromGMT(for: guess))))
        return local - offset
    }
}

/// An `http` or `https` URL. Nothing else reaches a page as a link: no `javascript:`,
/// no `data:`, no relative paths where a web address is expected.
extension Int {
    /// The number with leading zeros to `width` digits, as dates and times are written:
    /// 7 → "07". (String(format:) goes through Foundation's formatter, which costs more
    /// than the rest of a date's work on pages that print thousands of them.)
    public func zeroPadded(_ width: Int) -> String {
        // Written straight into a string short enough to need no allocation.
        var digits = 1
        var rest = magnitude / 10
        while rest > 0 { digits += 1; rest /= 10 }
        let count = Swift.max(width, digits)
        if self >= 0, count <= 15 {
            return String(unsafeUninitializedCapacity: count) { bytes in
                var value = self
                for offset in stride(from: count - 1, through: 0, by: -1) {
                    bytes[offset] = UInt8(ascii: "0") + UInt8(value % 10)
                    value /= 10
                }
                return count
            }
        }
        return (self < 0 ? "-" : "") + String(repeating: "0", count: Swift.max(0, width - digits)) + String(magnitude)
    }
}

extension Int {
    public func floorDivided(by divisor: Int) -> Int {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}

extension CalendarDate {
    public init(dayNumber: Int) {
        let z = dayNumber + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        self.init(year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month: month, day: day)
    }
}
