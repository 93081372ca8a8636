import Foundation
import SitegenContent
import SitegenSupport

/// What the homework pages show at the build's moment: which day's work is "tonight"
/// (or still "last night", before the release time), what is coming up, and the archive
/// of school days.
public struct HomeworkSchedule: Sendable {
    public var site: Site
    public var moment: BuildMoment
    /// Published assignments that are released at the moment (drafts only with `--drafts`);
    /// of a schedule made of some of them (`init(site:moment:some:…)`), those.
    public var assignments: [Assignment]
    /// Whether any assignment is shown, and the grades that have any.
    public private(set) var hasAssignments: Bool
    private var gradesWithWork: Set<GradeID>
    /// Days on which any grade got homework, oldest first: the school days of the archive.
    public var schoolDays: [CalendarDate]
    /// The day whose work the pages lead with, and whether it is tonight's or last night's.
    public var digestDay: CalendarDate?
    public var isTonight: Bool
    /// Subjects in the order sentences and lists name them.
    public var subjectOrder: [String: Int]
    /// How many of them site.yaml and teachers.yaml name: they come first, and the others
    /// after them, by name.
    private var namedSubjectCount = 0
    /// Assignments of each grade left out as drafts: a page whose grade has only drafts says so.
    public var draftCounts: [GradeID: Int]
    /// Each grade's assignments by day, in subject order, and all of them newest first:
    /// every page asks for these, so they are sorted out once.
    private var byGrade: [GradeID: [Assignment]] = [:]
    /// Where each day's work is in `byGrade` (a day's assignments are next to each other).
    private var dayRanges: [GradeID: [CalendarDate: Range<Int>]] = [:]

    /// What a schedule made of every assignment knows of them all: what a schedule made of
    /// some of them (`init(site:moment:some:…)`) takes as it is.
    public struct Outline: Sendable, Equatable {
        public var schoolDays: [CalendarDate]
        /// Every assignment's subject, drafts and work not yet released included.
        public var subjects: Set<String>
        public var draftCounts: [GradeID: Int]
        /// Whether any assignment is shown, and the grades that have any.
        public var hasAssignments: Bool
        public var gradesWithWork: Set<GradeID>

        public init(schoolDays: [CalendarDate], subjects: Set<String>, draftCounts: [GradeID: Int], hasAssignments: Bool, gradesWithWork: Set<GradeID>) {
            self.schoolDays = schoolDays
            self.subjects = subjects
            self.draftCounts = draftCounts
            self.hasAssignments = hasAssignments
            self.gradesWithWork = gradesWithWork
        }
    }

    public init(site: Site, moment: BuildMoment, all: [Assignment], teachers: [Teacher], includeDrafts: Bool) {
        let shown = all.filter { HomeworkSchedule.isShown($0, site: site, moment: moment, includeDrafts: includeDrafts) }
        var drafts: [GradeID: Int] = [:]
        for assignment in all where assignment.draft && !includeDrafts {
            for grade in assignment.grades { drafts[grade, default: 0] += 1 }
        }
        let outline = Outline(schoolDays: Set(shown.map { $0.assigned }).sorted(), subjects: Set(all.map { $0.subject }), draftCounts: drafts,
                              hasAssignments: !shown.isEmpty, gradesWithWork: Set(shown.flatMap(\.grades)))
        self.init(site: site, moment: moment, shown: shown, teachers: teachers, outline: outline)
    }

    /// A schedule made of `some` of the assignments (each repeat's occurrences, as
    /// `SiteIndex.homeworkSchedule` makes them), with what it knows of them all from
    /// `outline`: its lists hold only those, and answer as a whole schedule's would for a
    /// grade and day when `some` holds all of that grade's work on that day.
    public init(site: Site, moment: BuildMoment, some: [Assignment], teachers: [Teacher], includeDrafts: Bool, outline: Outline) {
        self.init(site: site, moment: moment, shown: some.filter { HomeworkSchedule.isShown($0, site: site, moment: moment, includeDrafts: includeDrafts) },
                  teachers: teachers, outline: outline)
    }

    private init(site: Site, moment: BuildMoment, shown: [Assignment], teachers: [Teacher], outline: Outline) {
        self.site = site
        self.moment = moment
        let releaseTime = site.homework.releaseTime
        isTonight = (moment.time ?? releaseTime) >= releaseTime
        assignments = shown
        draftCounts = outline.draftCounts
        schoolDays = outline.schoolDays
        hasAssignments = outline.hasAssignments
        gradesWithWork = outline.gradesWithWork
        digestDay = HomeworkSchedule.digestDay(site: site, moment: moment)

        var order: [String: Int] = [:]
        for subject in site.homework.subjects + teachers.map(\.subject) where order[subject] == nil {
            order[subject] = order.count
        }
        namedSubjectCount = order.count
        let rest = outline.subjects.subtracting(order.keys).sorted()
        for subject in rest { order[subject] = order.count }
        subjectOrder = order

        // Positions are grouped and sorted, not the assignments: moving many large values
        // about costs more than comparing them. Each is copied once into its grade's list.
        var grouped: [GradeID: [Int]] = [:]
        for position in assignments.indices {
            for grade in assignments[position].grades { grouped[grade, default: []].append(position) }
        }
        let list = assignments
        // The day and subject rank of each, read once: reading them through the
        // assignment in every comparison was a retain and release each time.
        let days = list.map { $0.assigned.dayNumber }
        let ranks = list.map { order[$0.subject] ?? Int.max }
        for (grade, positions) in grouped {
            // One sort: newest day first, then subject order, title and id. Each day's
            // work is then a run of the list, in that order.
            let newestFirst = positions.sorted { a, b in
                if days[a] != days[b] { return days[a] > days[b] }
                if ranks[a] != ranks[b] { return ranks[a] < ranks[b] }
                if list[a].title != list[b].title { return list[a].title < list[b].title }
                return list[a].id < list[b].id
            }.map { list[$0] }
            byGrade[grade] = newestFirst
            dayRanges[grade] = HomeworkSchedule.dayRanges(of: newestFirst)
        }
    }

    /// The day whose work the pages lead with at `moment`: today once the work is released;
    /// before that, the last school day by the calendar, whether or not anyone had work then
    /// ("no homework last night" is news too).
    public static func digestDay(site: Site, moment: BuildMoment) -> CalendarDate? {
        let releaseTime = site.homework.releaseTime
        return (moment.time ?? releaseTime) >= releaseTime ? moment.date : site.homework.calendar.previousSchoolDay(before: moment.date)
    }

    /// Whether the pages show an assignment at `moment`: it is published (or drafts are
    /// shown) and its work is out — its day is past, or it is today and the release time
    /// has come.
    private static func isShown(_ assignment: Assignment, site: Site, moment: BuildMoment, includeDrafts: Bool) -> Bool {
        isShown(draft: assignment.draft, on: assignment.assigned, site: site, moment: moment, includeDrafts: includeDrafts)
    }

    /// Whether the pages show work given on `day` at `moment` (`draft`: of a draft).
    public static func isShown(draft: Bool, on day: CalendarDate, site: Site, moment: BuildMoment, includeDrafts: Bool) -> Bool {
        let releaseTime = site.homework.releaseTime
        return (includeDrafts || !draft) && (day < moment.date || (day == moment.date && (moment.time ?? releaseTime) >= releaseTime))
    }

    /// Where each day's work is in a grade's list, newest first.
    private static func dayRanges(of list: [Assignment]) -> [CalendarDate: Range<Int>] {
        var days: [CalendarDate: Range<Int>] = [:]
        var start = 0
        while start < list.count {
            let day = list[start].assigned
            var end = start + 1
            while end < list.count, list[end].assigned == day { end += 1 }
            days[day] = start..<end
            start = end
        }
        return days
    }

    /// This schedule, made of every assignment, with the assignments of the source paths of
    /// `old` (as it was made of them, each repeat's occurrences included) in place of `new`: each one's grades'
    /// lists changed in place, not sorted again. Nil when the edit may change the order
    /// subjects are named in (a subject no site or teacher names, come or maybe gone), which
    /// orders every list: the schedule is then made again from every assignment.
    public func replacing(_ old: [Assignment], with new: [Assignment], includeDrafts: Bool) -> HomeworkSchedule? {
        let calendar = site.homework.calendar
        let gone = old.flatMap { $0.occurrences(in: calendar, through: moment.date) }
        let come = new.flatMap { $0.occurrences(in: calendar, through: moment.date) }
        let comingSubjects = Set(come.map { $0.subject })
        guard come.allSatisfy({ subjectOrder[$0.subject] != nil }),
              gone.allSatisfy({ subjectOrder[$0.subject, default: .max] < namedSubjectCount || comingSubjects.contains($0.subject) })
        else { return nil }
        var schedule = self
        for assignment in gone where assignment.draft && !includeDrafts {
            for grade in assignment.grades { schedule.draftCounts[grade, default: 0] -= 1 }
        }
        for assignment in come where assignment.draft && !includeDrafts {
            for grade in assignment.grades { schedule.draftCounts[grade, default: 0] += 1 }
        }
        schedule.draftCounts = schedule.draftCounts.filter { $0.value != 0 }
        // The schedule holds the models it was made of, and each repeat's occurrences made
        // for it: those are told by their source paths.
        let goneModels = Set(gone.map { $0.identity })
        let repeatedPaths = Set(old.filter { $0.repeats != nil }.map { $0.sourcePath })
        let isGone = { (assignment: Assignment) in
            goneModels.contains(assignment.identity) || (!repeatedPaths.isEmpty && repeatedPaths.contains(assignment.sourcePath))
        }
        let goneReleased = gone.count { HomeworkSchedule.isShown($0, site: site, moment: moment, includeDrafts: includeDrafts) }
        let released = come.filter { HomeworkSchedule.isShown($0, site: site, moment: moment, includeDrafts: includeDrafts) }
        let before = schedule.assignments.count
        schedule.assignments.removeAll(where: isGone)
        guard before - schedule.assignments.count == goneReleased else { return nil }
        schedule.assignments += released
        for grade in Set(gone.flatMap { $0.grades } + released.flatMap { $0.grades }) {
            var list = schedule.byGrade[grade] ?? []
            list.removeAll(where: isGone)
            for assignment in released where assignment.grades.contains(grade) {
                list.insert(assignment, at: list.partitioningIndex(where: { !precedes($0, assignment) }))
            }
            schedule.byGrade[grade] = list.isEmpty ? nil : list
            schedule.dayRanges[grade] = list.isEmpty ? nil : HomeworkSchedule.dayRanges(of: list)
        }
        // Every released assignment is in its grades' lists.
        schedule.schoolDays = Set(schedule.dayRanges.values.flatMap { $0.keys }).sorted()
        schedule.gradesWithWork = Set(schedule.byGrade.keys)
        schedule.hasAssignments = !schedule.assignments.isEmpty
        return schedule
    }

    /// Whether `a` comes before `b` in a grade's list: newest day first, then subject
    /// order, title and id.
    private func precedes(_ a: Assignment, _ b: Assignment) -> Bool {
        if a.assigned != b.assigned { return a.assigned > b.assigned }
        let (rankA, rankB) = (rank(a.subject), rank(b.subject))
        if rankA != rankB { return rankA < rankB }
        if a.title != b.title { return a.title < b.title }
        return a.id < b.id
    }

    /// A grade's assignments of one day, in subject order.
    public func assignments(of grade: GradeID, on day: CalendarDate) -> [Assignment] {
        guard let list = byGrade[grade], let range = dayRanges[grade]?[day] else { return [] }
        return Array(list[range])
    }

    /// Subjects of a day's work as `assignments(of:on:)` gives it, each once: that list is
    /// in subject order already (sorting it again cost more than a day page's rows).
    public func subjects(ofDay work: [Assignment]) -> [String] {
        var subjects: [String] = []
        for assignment in work where !subjects.contains(assignment.subject) {
            subjects.append(assignment.subject)
        }
        return subjects
    }

    /// Work of a grade still to hand in, by due date: everything due after today (and,
    /// before the release time, what is due today), other than the work of `shown` (the
    /// digest day's, which the page shows above it).
    public func upcoming(of grade: GradeID, besides shown: CalendarDate?) -> [(day: CalendarDate, assignments: [Assignment])] {
        let pending = assignments(of: grade).filter { assignment in
            guard let due = assignment.due, assignment.assigned != shown else { return false }
            return isTonight ? due.date > moment.date : due.date >= moment.date
        }
        let byDay = Dictionary(grouping: pending) { $0.due!.date }
        return byDay.keys.sorted().map { day in
            (day, byDay[day]!.sorted(byKey: { ($0.due!.time ?? TimeOfDay(hour: 23, minute: 59), rank($0.subject), $0.title, $0.id) }, by: <))
        }
    }

    /// All of a grade's assignments, newest first: for its feed and calendar.
    public func assignments(of grade: GradeID) -> [Assignment] {
        byGrade[grade] ?? []
    }

    /// Whether a grade has any work shown.
    public func hasWork(of grade: GradeID) -> Bool {
        gradesWithWork.contains(grade)
    }

    /// The assignments a grade's feeds carry: its newest.
    public func feedWork(of grade: GradeID) -> ArraySlice<Assignment> {
        assignments(of: grade).prefix(HomeworkViews.feedLength)
    }

    /// The assignments a grade's calendar holds: those due from `HomeworkViews.calendarHistory`
    /// days before the moment on, newest first.
    public func calendarWork(of grade: GradeID) -> [Assignment] {
        let earliest = moment.date.dayNumber - HomeworkViews.calendarHistory
        return assignments(of: grade).filter { ($0.due?.date.dayNumber ?? Int.min) >= earliest }
    }

    private func rank(_ subject: String) -> Int {
        subjectOrder[subject] ?? Int.max
    }

    /// The school day before and after `day`, for the archive's links.
    public func neighbours(of day: CalendarDate) -> (previous: CalendarDate?, next: CalendarDate?) {
        var low = 0
        var high = schoolDays.count
        while low < high {
            let middle = (low + high) / 2
            if schoolDays[middle] < day { low = middle + 1 } else { high = middle }
        }
        guard low < schoolDays.count, schoolDays[low] == day else { return (nil, nil) }
        let index = low
        return (index > 0 ? schoolDays[index - 1] : nil, index + 1 < schoolDays.count ? schoolDays[index + 1] : nil)
    }

    /// The instant an assignment's day was released, as seconds since 1970.
    public func releaseInstant(of day: CalendarDate) -> Int { site.releaseInstant(of: day) }

    /// The moment as an instant, for "Updated …" and the feeds.
    public var momentInstant: Int {
        DateTimeValue(date: moment.date, time: moment.time ?? site.homework.releaseTime).instant(in: site.timeZone)
    }
}

/// The sentences of the homework pages, in the theme's words: "8th grade has homework in
/// Math and History tonight."
public enum HomeworkSentence {
    /// Tonight's work (`tonight`), or last night's.
    public static func make(_ strings: ThemeStrings, who: String, subjects: [String], tonight: Bool) -> String {
        let key = tonight ? "tonight" : "lastNight"
        return strings.text(key + (subjects.isEmpty ? ".none" : ".some"), ["grade": who, "subjects": strings.list(subjects)])
    }

    /// A day of the archive: "6th grade had no homework on Wednesday, Nov 25."
    public static func make(_ strings: ThemeStrings, who: String, subjects: [String], day: String) -> String {
        strings.text(subjects.isEmpty ? "onDay.none" : "onDay.some", ["grade": who, "subjects": strings.list(subjects), "day": day])
    }

    /// A day off: "No school today: Chinese New Year. 8th grade has Math and History due
    /// Monday." `next`: the next school day as the due dates name it.
    public static func dayOff(_ strings: ThemeStrings, who: String, holiday: SchoolCalendar.Holiday?, due subjects: [String], next: String?) -> String {
        let closed = holiday?.name.map { strings.text("dayOffNamed", ["name": $0]) } ?? strings.text("dayOff")
        guard let next else { return closed }
        return closed + " " + strings.text(subjects.isEmpty ? "dueNext.none" : "dueNext.some", ["grade": who, "subjects": strings.list(subjects), "day": next])
    }

    /// "No school tomorrow: Chinese New Year."
    public static func noSchoolTomorrow(_ strings: ThemeStrings, _ holiday: SchoolCalendar.Holiday) -> String {
        holiday.name.map { strings.text("noSchoolTomorrowNamed", ["name": $0]) } ?? strings.text("noSchoolTomorrow")
    }
}
