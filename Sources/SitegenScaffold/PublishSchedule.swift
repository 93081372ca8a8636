import Foundation
import SitegenContent

/// When a daily publish runs so that the site is rebuilt at its homework's release time
/// all year: CI services read cron in UTC, and a zone with daylight saving is at two UTC
/// offsets in a year, so there is one cron line for each offset the zone has at that time.
/// On any day, one of the lines falls on the release time; the others rebuild the same
/// site (before the release, or after it), which changes nothing.
public struct PublishSchedule: Sendable, Equatable {
    public struct Line: Sendable, Equatable {
        /// `M H * * *`, in UTC.
        public var cron: String
        /// The zone's offset from UTC, in seconds, for which this line is the release time.
        public var offset: Int

        /// `UTC+11:00`, `UTC−03:30`.
        public var offsetText: String {
            let minutes = abs(offset) / 60
            return "UTC\(offset < 0 ? "−" : "+")\(String(format: "%02d:%02d", minutes / 60, minutes % 60))"
        }

        /// When the line runs, `03:00`, in UTC.
        public var utcTime: String {
            let parts = cron.split(separator: " ")
            return String(format: "%02d:%02d", Int(parts[1]) ?? 0, Int(parts[0]) ?? 0)
        }
    }

    /// The lines, by the time they run in UTC.
    public var lines: [Line]

    /// The lines for `release` (hours and minutes) in `zone`, for the offsets the zone has at
    /// that time on any day of the year from `now`.
    public init(release: (hour: Int, minute: Int), zone: TimeZone, from now: Date) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        var offsets = Set<Int>()
        let start = calendar.startOfDay(for: now)
        for day in 0...366 {
            guard let date = calendar.date(byAdding: .day, value: day, to: start),
                  let released = calendar.date(bySettingHour: release.hour, minute: release.minute, second: 0, of: date)
            else { continue }
            offsets.insert(zone.secondsFromGMT(for: released))
        }
        lines = offsets.map { offset in
            let utc = ((release.hour * 3600 + release.minute * 60 - offset) % 86_400 + 86_400) % 86_400
            return Line(cron: "\(utc % 3600 / 60) \(utc / 3600) * * *", offset: offset)
        }.sorted { ($0.utcTime, $0.offset) < ($1.utcTime, $1.offset) }
    }
}
