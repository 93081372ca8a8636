import Foundation
import SitegenContent

/// An iCalendar file (RFC 5545) of due dates: all-day events, or timed ones with the
/// site's time zone described in a VTIMEZONE. Text is escaped, lines end in CRLF and are
/// folded at 75 octets without splitting a character.
public struct ICalendar {
    public struct Event {
        public var uid: String
        public var stamp: Int
        public var due: DateTimeValue
        public var summary: String
        public var description: String
        public var url: String?
        public var categories: String?
    }

    public var name: String
    public var description: String
    public var timeZone: TimeZone
    public var events: [Event]

    public func render() -> [UInt8] {
        var lines = [
            "BEGIN:VCALENDAR",
            "VERSION:2.0",
            "PRODID:-//sitegen//Homework//EN",
            "CALSCALE:GREGORIAN",
            "METHOD:PUBLISH",
            "X-WR-CALNAME:" + ICalendar.escape(name),
            "X-WR-CALDESC:" + ICalendar.escape(description),
            "X-WR-TIMEZONE:" + timeZone.identifier,
            "REFRESH-INTERVAL;VALUE=DURATION:PT6H",
            "X-PUBLISHED-TTL:PT6H",
        ]
        let localTimes = events.filter { $0.due.time != nil && $0.due.offsetSeconds == nil }
        if !localTimes.isEmpty {
            let years = localTimes.map(\.due.date.year)
            lines += ICalendar.timeZoneComponent(timeZone, from: years.min()!, through: years.max()!)
        }
        for event in events {
            lines.append("BEGIN:VEVENT")
            lines.append("UID:" + ICalendar.escape(event.uid))
            lines.append("DTSTAMP:" + ICalendar.utc(event.stamp))
            if let time = event.due.time {
                if let offset = event.due.offsetSeconds {
                    let instant = event.due.date.dayNumber * 86_400 + time.secondsIntoDay - offset
                    lines.append("DTSTART:" + ICalendar.utc(instant))
                } else {
                    lines.append("DTSTART;TZID=\(timeZone.identifier):" + ICalendar.local(event.due.date, time))
                }
            } else {
                lines.append("DTSTART;VALUE=DATE:" + ICalendar.date(event.due.date))
                lines.append("DTEND;VALUE=DATE:" + ICalendar.date(CalendarDate(dayNumber: event.due.date.dayNumber + 1)))
                lines.append("TRANSP:TRANSPARENT")
            }
            lines.append("SUMMARY:" + ICalendar.escape(event.summary))
            if !event.description.isEmpty { lines.append("DESCRIPTION:" + ICalendar.escape(event.description)) }
            if let url = event.url { lines.append("URL:" + url) }
            if let categories = event.categories { lines.append("CATEGORIES:" + ICalendar.escape(categories)) }
            lines.append("END:VEVENT")
        }
        lines.append("END:VCALENDAR")
        var output: [UInt8] = []
        output.reserveCapacity(lines.reduce(0) { $0 + $1.utf8.count + 4 })
        for line in lines { ICalendar.fold(line, into: &output) }
        return output
    }

    /// TEXT values escape backslash, semicolon, comma and newlines (RFC 5545, 3.3.11).
    public static func escape(_ text: String) -> String {
        var contiguous = text
        return contiguous.withUTF8 { bytes -> String in
            // Most titles and names need nothing: they are returned as they are.
            guard bytes.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: ";") || $0 == UInt8(ascii: ",") }) else {
                return text
            }
            var result: [UInt8] = []
            result.reserveCapacity(bytes.count + 16)
            for byte in bytes {
                switch byte {
                case UInt8(ascii: "\\"), UInt8(ascii: ";"), UInt8(ascii: ","):
                    result.append(UInt8(ascii: "\\"))
                    result.append(byte)
                case UInt8(ascii: "\n"):
                    result.append(UInt8(ascii: "\\"))
                    result.append(UInt8(ascii: "n"))
                case 0..<0x20, 0x7F: continue
                default: result.append(byte)
                }
            }
            return String(decoding: result, as: UTF8.self)
        }
    }

    /// A content line folded at 75 octets: CRLF and a space start each continuation, and
    /// no UTF-8 character is cut in two.
    public static func fold(_ line: String) -> [UInt8] {
        var output: [UInt8] = []
        fold(line, into: &output)
        return output
    }

    /// Appends `line` folded to `output`, without an array per line or per break (a
    /// grade's calendar has thousands of events of ten lines).
    public static func fold(_ line: String, into output: inout [UInt8]) {
        var line = line
        line.withUTF8 { bytes in
            var start = 0
            var limit = 75
            while bytes.count - start > limit {
                var end = start + limit
                while end > start, bytes[end] & 0xC0 == 0x80 { end -= 1 }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<end]))
                output.append(13)
                output.append(10)
                output.append(32)
                start = end
                limit = 74
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
            output.append(13)
            output.append(10)
        }
    }

    public static func date(_ date: CalendarDate) -> String {
        date.year.zeroPadded(4) + date.month.zeroPadded(2) + date.day.zeroPadded(2)
    }

    public static func local(_ date: CalendarDate, _ time: TimeOfDay) -> String {
        self.date(date) + "T" + time.hour.zeroPadded(2) + time.minute.zeroPadded(2) + time.second.zeroPadded(2)
    }

    public static func utc(_ instant: Int) -> String {
        let day = instant.floorDivided(by: 86_400)
        let second = instant - day * 86_400
        return local(CalendarDate(dayNumber: day), TimeOfDay(hour: second / 3600, minute: second % 3600 / 60, second: second % 60)) + "Z"
    }

    /// A VTIMEZONE with every offset change of the years used, so any calendar reads the
    /// times the same way as the site.
    public static func timeZoneComponent(_ zone: TimeZone, from firstYear: Int, through lastYear: Int) -> [String] {
        let start = Date(timeIntervalSince1970: TimeInterval(CalendarDate(year: firstYear, month: 1, day: 1).dayNumber * 86_400))
        let end = Date(timeIntervalSince1970: TimeInterval(CalendarDate(year: lastYear + 1, month: 1, day: 1).dayNumber * 86_400))
        var lines = ["BEGIN:VTIMEZONE", "TZID:" + zone.identifier]
        func component(at instant: Date, from oldOffset: Int, to newOffset: Int) {
            let kind = zone.isDaylightSavingTime(for: instant) ? "DAYLIGHT" : "STANDARD"
            let localStart = Int(instant.timeIntervalSince1970) + oldOffset
            let day = localStart.floorDivided(by: 86_400)
            let second = localStart - day * 86_400
            lines.append("BEGIN:\(kind)")
            lines.append("DTSTART:" + local(CalendarDate(dayNumber: day), TimeOfDay(hour: second / 3600, minute: second % 3600 / 60, second: second % 60)))
            lines.append("TZOFFSETFROM:" + offset(oldOffset))
            lines.append("TZOFFSETTO:" + offset(newOffset))
            if let name = zone.abbreviation(for: instant) { lines.append("TZNAME:" + escape(name)) }
            lines.append("END:\(kind)")
        }
        let initial = zone.secondsFromGMT(for: start)
        component(at: start, from: initial, to: initial)
        var cursor = start
        while let transition = zone.nextDaylightSavingTimeTransition(after: cursor), transition < end {
            let before = zone.secondsFromGMT(for: transition.addingTimeInterval(-1))
            let after = zone.secondsFromGMT(for: transition)
            if before != after { component(at: transition, from: before, to: after) }
            cursor = transition
        }
        lines.append("END:VTIMEZONE")
        return lines
    }

    public static func offset(_ seconds: Int) -> String {
        (seconds < 0 ? "-" : "+") + (abs(seconds) / 3600).zeroPadded(2) + (abs(seconds) % 3600 / 60).zeroPadded(2)
    }
}
