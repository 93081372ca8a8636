import Foundation
import SitegenContent
import SitegenSupport
import SitegenMustache

/// What the homework templates, feeds and calendars are made of.
public struct HomeworkViews: Sendable {
    public var index: SiteIndex
    public var context: ViewContext
    /// `/homework/` and the home page: a sentence per grade. Every homework page shows
    /// it, so it is made once, when first asked for: its "Updated Friday, Dec 4, 3:00 PM"
    /// asks ICU, which a rebuild after one article was edited, rendering no homework page,
    /// need not do.
    private let madeSummary = Once<MadeSummary>()
    /// What every page of a grade shows of it, made once per grade when first asked for.
    private var commonFields: [GradeID: Once<MustacheFields>] = [:]
    /// What each grade leads with, worked out once for its page, its description and the
    /// summary.
    private var digests: [GradeID: Once<HomeworkDigest>] = [:]
    /// What rows show of each teacher, by id.
    private var teacherViews: [String: MustacheValue] = [:]
    /// `homework/grade-8/`, made once per grade.
    private var gradePaths: [GradeID: String] = [:]

    /// `summary`: the summary as a build at the same moment made it (`SiteLists`), for a
    /// rebuild whose index has none of the assignments.
    public init(index: SiteIndex, context: ViewContext, summary: HomeworkSummary? = nil) {
        self.index = index
        self.context = context
        if let summary { _ = madeSummary.value { MadeSummary(values: summary, value: summary.mustacheValue) } }
        for grade in index.site.homework.grades { gradePaths[grade] = Self.path(of: grade) }
        for grade in index.site.homework.grades {
            commonFields[grade] = Once()
            digests[grade] = Once()
        }
        for teacher in index.teachers { teacherViews[teacher.id] = AssignmentView.teacher(teacher) }
    }

    public var summary: MustacheValue { made.value }

    public var summaryValues: HomeworkSummary { made.values }

    private var made: MadeSummary {
        madeSummary.value {
            let values = makeSummary()
            return MadeSummary(values: values, value: values.mustacheValue)
        }
    }

    /// The summary, and its view made once for every page that shows it.
    private struct MadeSummary: Sendable {
        public var values: HomeworkSummary
        public var value: MustacheValue
    }

    public var schedule: HomeworkSchedule { index.homework }
    public var site: Site { index.site }

    /// How many school days a grade page links to.
    public static let recentDayCount = 10
    /// The newest assignments a feed carries.
    public static let feedLength = 100
    /// How far back a calendar goes, in days before the build's day.
    public static let calendarHistory = 120

    // MARK: Pages

    /// The sentence a grade's page leads with.
    public func sentence(of grade: GradeID) -> String {
        digest(of: grade).sentence(context)
    }

    private func digest(of grade: GradeID) -> HomeworkDigest {
        digests[grade]?.value { HomeworkDigest(grade: grade, schedule: schedule) } ?? HomeworkDigest(grade: grade, schedule: schedule)
    }

    /// The sentence of a grade's day in the archive.
    public func sentence(of grade: GradeID, on day: CalendarDate) -> String {
        HomeworkSentence.make(context.strings, who: context.gradeName(grade), subjects: schedule.subjects(ofDay: schedule.assignments(of: grade, on: day)), day: context.formats.weekdayDate(day))
    }

    private func makeSummary() -> HomeworkSummary {
        HomeworkSummary(
            grades: site.homework.grades.map { grade in
                let digest = digest(of: grade)
                return HomeworkSummary.Grade(name: context.gradeName(grade), url: context.url(gradePath(grade)), sentence: digest.sentence(context), count: digest.work.count)
            },
            hasAssignments: schedule.hasAssignments,
            updated: updatedText,
            updatedISO: RFC3339.format(schedule.momentInstant, in: site.timeZone),
            teachersURL: context.url("homework/teachers/"))
    }

    public func gradePage(_ grade: GradeID) -> MustacheFields {
        let digest = digest(of: grade)
        let upcoming: [MustacheValue] = digest.upcoming.map { day, work in
            .fields([
                "label": .string(context.strings.text("dueOn", ["day": relativeDay(day)])),
                "date": .string(day.description),
                "assignments": .array(work.map { row($0, grade: grade) }),
            ])
        }
        let recent: [MustacheValue] = schedule.schoolDays.reversed().prefix(Self.recentDayCount).map { day in
            let count = schedule.assignments(of: grade, on: day).count
            return .fields([
                "label": .string(context.formats.weekdayDate(day)),
                "date": .string(day.description),
                "url": .string(context.url(dayPath(grade, day))),
                "count": .int(count),
                "one": .bool(count == 1),
                "countText": .string(context.strings.count("assignmentCount", count)),
            ])
        }
        let published = schedule.hasWork(of: grade)
        var fields = common(grade)
        fields["sentence"] = .string(digest.sentence(context))
        fields["digest"] = .fields([
            "label": .string(digest.label(context.strings)),
            "day": digest.day.map { .string(context.formats.weekdayDate($0)) } ?? .null,
            "date": digest.day.map { .string($0.description) } ?? .null,
            "url": digest.day.flatMap { day in digest.isArchiveDay ? .string(context.url(dayPath(grade, day))) : nil } ?? .null,
            "assignments": .array(digest.work.map { row($0, grade: grade) }),
        ])
        fields["upcoming"] = .array(upcoming)
        fields["recentDays"] = .array(recent)
        fields["hasAssignments"] = .bool(schedule.hasAssignments)
        fields["onlyDrafts"] = .bool(!published && schedule.draftCounts[grade, default: 0] > 0)
        fields["draftCount"] = .int(schedule.draftCounts[grade, default: 0])
        fields["onlyDraftsText"] = .string(context.strings.text("onlyDrafts", ["grade": context.gradeName(grade)]))
        return fields
    }

    public func dayPage(_ grade: GradeID, _ day: CalendarDate) -> MustacheFields {
        let work = schedule.assignments(of: grade, on: day)
        let dayURL = context.url(dayPath(grade, day))
        let label = context.formats.weekdayDate(day)
        let (previous, next) = schedule.neighbours(of: day)
        func link(_ other: CalendarDate?) -> MustacheValue {
            other.map { .fields(["url": .string(context.url(dayPath(grade, $0))), "label": .string(context.formats.weekdayDate($0))]) } ?? .null
        }
        var fields = common(grade)
        fields["day"] = .fields([
            "label": .string(label),
            "date": .string(day.description),
            "sentence": .string(HomeworkSentence.make(context.strings, who: context.gradeName(grade), subjects: schedule.subjects(ofDay: work), day: label)),
            "emptyText": .string(context.strings.text("noAssignmentsThatDay", ["grade": context.gradeName(grade)])),
            "assignments": .array(work.map { row($0, grade: grade, dayURL: dayURL) }),
            "previous": link(previous),
            "next": link(next),
        ])
        return fields
    }

    public var teachersPage: MustacheFields {
        let teachers: [MustacheValue] = index.teachers.sorted { ($0.name, $0.id) < ($1.name, $1.id) }.map { teacher in
            .fields([
                "name": .string(teacher.name),
                "subject": .string(teacher.subject),
                "grades": .string(context.strings.list(teacher.grades.map(context.gradeName))),
                "blog": teacher.blog.map { .string($0.text) } ?? .null,
                "email": teacher.email.map(MustacheValue.string) ?? .null,
                "extra": teacher.extra.mustacheValue,
            ])
        }
        return ["teachers": .array(teachers), "homework": summary]
    }

    func common(_ grade: GradeID) -> MustacheFields {
        commonFields[grade]?.value { makeCommon(grade) } ?? makeCommon(grade)
    }

    private func makeCommon(_ grade: GradeID) -> MustacheFields {
        var gradeFields: MustacheFields = [
            "id": .string(grade.text),
            "name": .string(context.gradeName(grade)),
            "feedTitle": .string(context.strings.text("feedTitle", ["grade": context.gradeName(grade)])),
            "calendarTitle": .string(context.strings.text("calendarTitle", ["grade": context.gradeName(grade)])),
            "url": .string(context.url(gradePath(grade))),
            "hasFeeds": .bool(index.hasFeeds),
            "tonightURL": .string(context.url(gradePath(grade) + "tonight.txt")),
        ]
        if index.hasFeeds, let origin = site.origin {
            gradeFields["feedURL"] = .string(context.url(gradePath(grade) + "feed.xml"))
            gradeFields["jsonFeedURL"] = .string(context.url(gradePath(grade) + "feed.json"))
            gradeFields["calendarURL"] = .string(context.url(gradePath(grade) + "calendar.ics"))
            gradeFields["webcalURL"] = .string(webcalURL(grade, origin: origin))
        }
        return [
            "grade": .fields(gradeFields),
            "updated": .string(updatedText),
            "updatedISO": .string(RFC3339.format(schedule.momentInstant, in: site.timeZone)),
            "homework": summary,
        ]
    }

    /// `dayURL`: the page of the day it was given, when the caller has it (a day's page
    /// shows only that day's work).
    private func row(_ assignment: Assignment, grade: GradeID, dayURL: String? = nil) -> MustacheValue {
        .object(AssignmentView(assignment: assignment, variant: "assignment.row", context: context, today: schedule.moment.date,
                               dayURL: dayURL ?? context.url(dayPath(grade, assignment.assigned)),
                               teacher: assignment.teacher.map { teacherViews[$0.id] ?? AssignmentView.teacher($0) } ?? .null))
    }

    /// "Updated Wednesday, Nov 25, 3:00 PM".
    public var updatedText: String {
        let time = schedule.moment.time ?? site.homework.releaseTime
        return context.strings.text("updatedAt", ["moment": context.strings.text("dayAndTime", ["day": context.formats.weekdayDate(schedule.moment.date), "time": context.formats.time(time)])])
    }

    /// "today", "tomorrow" or "Friday, Dec 4", from the build's day.
    public func relativeDay(_ day: CalendarDate) -> String {
        context.relativeDay(day, from: schedule.moment.date)
    }

    public func gradePath(_ grade: GradeID) -> String { gradePaths[grade] ?? Self.path(of: grade) }
    private static func path(of grade: GradeID) -> String { "homework/grade-\(grade.slug)/" }
    public func dayPath(_ grade: GradeID, _ day: CalendarDate) -> String { gradePath(grade) + "\(day)/" }

    // MARK: Subscriptions

    /// The grade's calendar as a `webcal:` address, which calendar apps subscribe to.
    func webcalURL(_ grade: GradeID, origin: String) -> String {
        let withoutScheme = origin.split(separator: "://", maxSplits: 1).last.map(String.init) ?? origin
        return "webcal://" + withoutScheme + context.url(gradePath(grade) + "calendar.ics")
    }

    func absolute(_ path: String) -> String {
        (site.origin ?? "") + context.url(path)
    }

    private var author: String {
        site.homework.school.isEmpty ? site.title : site.homework.school
    }

    public func feed(_ grade: GradeID) -> AtomFeed {
        let host = site.host ?? "localhost"
        let work = schedule.feedWork(of: grade)
        let entries = work.map { assignment -> AtomFeed.Entry in
            let released = schedule.releaseInstant(of: assignment.assigned)
            return AtomFeed.Entry(
                id: "tag:\(host),\(assignment.assigned):homework/\(assignment.id)",
                title: "\(assignment.subject): \(assignment.title)",
                link: absolute(dayPath(grade, assignment.assigned)),
                published: released,
                updated: released,
                authorName: assignment.teacher?.name,
                category: assignment.subject,
                summary: assignment.due.map { due in
                    let day = context.formats.weekdayDate(due.date)
                    return context.strings.text("dueOn", ["day": due.time.map { context.strings.text("dayAndTime", ["day": day, "time": context.formats.time($0)]) } ?? day])
                },
                contentHTML: assignment.detailsHTML.withUTF8 { Array($0) },
                contentBase: absolute("")
            )
        }
        let name = context.gradeName(grade)
        return AtomFeed(
            id: absolute(gradePath(grade)),
            title: "\(name) – \(context.homeworkTitle) – \(author)",
            subtitle: context.strings.text("feedSubtitle", ["grade": name, "school": author]),
            link: absolute(gradePath(grade)),
            selfLink: absolute(gradePath(grade) + "feed.xml"),
            updated: entries.map(\.updated).max() ?? schedule.momentInstant,
            authorName: author,
            entries: Array(entries),
            timeZone: site.timeZone
        )
    }

    public func jsonFeed(_ grade: GradeID) -> JSONFeed {
        // JSON Feed has no xml:base: the details' links are made absolute.
        var atom = feed(grade)
        for place in atom.entries.indices {
            atom.entries[place].contentHTML = atom.entries[place].contentHTML.map { Publishing.absolutized($0, context: context) }
        }
        return JSONFeed(atom, feedURL: absolute(gradePath(grade) + "feed.json"), language: site.language.text)
    }

    public func calendar(_ grade: GradeID) -> ICalendar {
        let host = site.host ?? "localhost"
        let events = schedule.calendarWork(of: grade)
            .sorted(byKey: { ($0.due!.date, $0.due!.time ?? TimeOfDay(hour: 0, minute: 0), $0.id) }, by: <)
            .map { assignment in
                var description = assignment.detailsText.text
                if let teacher = assignment.teacher { description += (description.isEmpty ? "" : "\n\n") + context.strings.text("calendarTeacher", ["name": teacher.name]) }
                if let link = assignment.link { description += (description.isEmpty ? "" : "\n") + context.strings.text("calendarLink", ["url": link.text]) }
                return ICalendar.Event(
                    uid: "\(assignment.id)@\(host)",
                    stamp: schedule.releaseInstant(of: assignment.assigned),
                    due: assignment.due!,
                    summary: "\(assignment.subject): \(assignment.title)",
                    description: description,
                    url: absolute(dayPath(grade, assignment.assigned)),
                    categories: assignment.subject
                )
            }
        let name = context.gradeName(grade)
        return ICalendar(name: "\(name) – \(context.homeworkTitle) – \(author)",
                         description: context.strings.text("calendarDescription", ["grade": name, "school": author]),
                         timeZone: site.timeZone, events: events)
    }
}

/// What the home pages, `/homework/` and the teachers' page show of the homework: a
/// sentence per grade and when it was updated. Plain values, so that the cache can keep
/// them (`SiteLists`) for a rebuild that renders a home page without the assignments.
public struct HomeworkSummary: Sendable, Equatable {
    public struct Grade: Sendable, Equatable {
        public var name: String
        public var url: String
        public var sentence: String
        public var count: Int

        public init(name: String, url: String, sentence: String, count: Int) {
            self.name = name
            self.url = url
            self.sentence = sentence
            self.count = count
        }
    }

    public var grades: [Grade]
    public var hasAssignments: Bool
    public var updated: String
    public var updatedISO: String
    public var teachersURL: String

    public var mustacheValue: MustacheValue {
        let grades: [MustacheValue] = grades.map { grade in
            .fields(["name": .string(grade.name), "url": .string(grade.url), "sentence": .string(grade.sentence), "count": .int(grade.count)])
        }
        return .fields([
            "grades": .array(grades),
            "hasGrades": .bool(!grades.isEmpty),
            "hasAssignments": .bool(hasAssignments),
            "updated": .string(updated),
            "updatedISO": .string(updatedISO),
            "teachersURL": .string(teachersURL),
        ])
    }

    public init(grades: [Grade], hasAssignments: Bool, updated: String, updatedISO: String, teachersURL: String) {
        self.grades = grades
        self.hasAssignments = hasAssignments
        self.updated = updated
        self.updatedISO = updatedISO
        self.teachersURL = teachersURL
    }
}
