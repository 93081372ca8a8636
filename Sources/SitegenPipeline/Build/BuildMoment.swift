import Foundation
import SitegenContent

/// The build's "now": `--today` or the clock, read in the site's time zone.
public struct BuildMoment: Sendable, Hashable {
    public var date: CalendarDate
    public var time: TimeOfDay?

    public init(date: CalendarDate, time: TimeOfDay?) {
        self.date = date
        self.time = time
    }

    public init?(parsing text: String) {
        let parts = text.split(separator: "T", maxSplits: 1, omittingEmptySubsequences: false)
        guard let date = CalendarDate(parsing: parts[0]), (try? date.check()) != nil else { return nil }
        var time: TimeOfDay?
        if parts.count == 2 {
            guard let parsed = TimeOfDay(parsing: parts[1]) else { return nil }
            time = parsed
        }
        self.init(date: date, time: time)
    }

    /// The moment a build of `site` renders at: `requested` (`--today`) or the clock's,
    /// settled. Every build, and the dev server's quick rebuilds, take it from here.
    public static func seen(requested: BuildMoment?, clock: () -> Date, by site: Site) -> BuildMoment {
        (requested ?? now(in: site.timeZone, at: clock())).settled(releaseTime: site.homework.releaseTime)
    }

    /// The instant articles' dates are held against, to the minute (not settled: a post
    /// scheduled for 10:00 is published by a build at 10:00). A day alone (`--today
    /// 2026-03-10`) reads as its release time, as it does for the homework.
    public static func schedulingInstant(requested: BuildMoment?, clock: () -> Date, by site: Site) -> Int {
        let moment = requested ?? now(in: site.timeZone, at: clock())
        return DateTimeValue(date: moment.date, time: moment.time ?? site.homework.releaseTime).instant(in: site.timeZone)
    }

    /// The moment as the pages see it. What the homework pages show changes only at
    /// midnight (the day's relative dates, what is upcoming) and at the release time (the
    /// day's work becomes tonight's): any moment after the release time is the day alone,
    /// which reads as the release time, and any moment before it is the day at midnight.
    /// So builds between two of those changes make the same bytes and find the same cache,
    /// where the minute of the clock would make every build a new one.
    public func settled(releaseTime: TimeOfDay) -> BuildMoment {
        guard let time, time < releaseTime else { return BuildMoment(date: date, time: nil) }
        return BuildMoment(date: date, time: TimeOfDay(hour: 0, minute: 0))
    }

    /// When the clock next reaches a moment that settles to another than this settled
    /// one: the day's release time when this is the day before it, else the next midnight.
    public func nextChange(releaseTime: TimeOfDay, in zone: TimeZone) -> Date {
        let next = time == nil ? BuildMoment(date: CalendarDate(dayNumber: date.dayNumber + 1), time: TimeOfDay(hour: 0, minute: 0))
                               : BuildMoment(date: date, time: releaseTime)
        return next.instant(in: zone)
    }

    /// The instant this moment names in `zone` (a date alone: its midnight).
    public func instant(in zone: TimeZone) -> Date {
        Date(timeIntervalSince1970: TimeInterval(DateTimeValue(date: date, time: time).instant(in: zone)))
    }

    /// The moment as the cache notes it.
    public var key: String { "\(date)T\(time?.description ?? "-")" }

    /// The clock's moment at `instant`, read in `zone`, to the minute.
    public static func now(in zone: TimeZone, at instant: Date) -> BuildMoment {
        let seconds = Int(instant.timeIntervalSince1970.rounded(.down)) + zone.secondsFromGMT(for: instant)
        let day = seconds.floorDivided(by: 86_400)
        let secondOfDay = seconds - day * 86_400
        return BuildMoment(date: CalendarDate(dayNumber: day), time: TimeOfDay(hour: secondOfDay / 3600, minute: secondOfDay % 3600 / 60))
    }
}
