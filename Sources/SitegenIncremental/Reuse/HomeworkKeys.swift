import Foundation
import SitegenContent
import SitegenFiles
import SitegenPipeline
import SitegenSupport

/// What the homework pages order and pick assignments by, for every assignment of the
/// last build, kept beside the cache: each time work is given (a repeat's every
/// occurrence) with its file, day, due day, subject, grades and whether it is a draft. A
/// command's rebuild after an assignment is edited (`EditScope.homeworkScope`) reads
/// from it what the whole homework holds (`HomeworkSchedule.Outline`) and which
/// assignments the pages showing the edit are made of, and decodes only those from the
/// store: a few thousand of the large corpus's 50,000. Written whole by a build that
/// made every model and by such a rebuild; valid only for the cache that names its
/// checksum (`BuildCache.homeworkChecksum`), the same context and moment, and a tree with
/// as many assignment files.
struct HomeworkKeys: Sendable, Equatable {
    struct Row: Sendable, Equatable {
        /// The file's place among the tree's assignment files.
        var file: Int
        var day: Int
        /// Its due day; `Int.min` when it has none.
        var due: Int
        var subject: Int
        /// Places in `grades`, a bit each.
        var grades: UInt64
        var draft: Bool
    }

    var contextHash: UInt64
    var moment: String
    var fileCount: Int
    var subjects: [String]
    var grades: [GradeID]
    /// By file.
    var rows: [Row]

    /// The keys of `assignments` (each with its place among the tree's `fileCount`
    /// assignment files) as the schedule at `moment` gives their work; nil with more
    /// grades than a row has bits for.
    init?(_ assignments: [(file: Int, assignment: Assignment)], fileCount: Int, calendar: SchoolCalendar, moment: BuildMoment, contextHash: UInt64) {
        self.contextHash = contextHash
        self.moment = moment.key
        self.fileCount = fileCount
        subjects = []
        grades = []
        rows = []
        rows.reserveCapacity(assignments.count)
        guard add(assignments, calendar: calendar, through: moment.date) else { return nil }
    }

    /// The keys of the assignments of a whole build's `models` (of the tree's Markdown
    /// files, in its order); nil when an assignment file has no assignment.
    init?(tree: SourceTree, models: [Validated], site: Site, moment: BuildMoment, contextHash: UInt64) {
        var assignments: [(file: Int, assignment: Assignment)] = []
        for (source, made) in zip(tree.markdown, models) where source.kind == .assignment {
            guard case .assignment(let assignment) = made.model.model else { return nil }
            assignments.append((assignments.count, assignment))
        }
        self.init(assignments, fileCount: assignments.count, calendar: site.homework.calendar, moment: moment, contextHash: contextHash)
    }

    /// Adds the rows of `assignments`; false with more grades than a row has bits for.
    private mutating func add(_ assignments: [(file: Int, assignment: Assignment)], calendar: SchoolCalendar, through date: CalendarDate) -> Bool {
        var subjectPlaces = Dictionary(uniqueKeysWithValues: subjects.enumerated().map { ($1, $0) })
        var gradePlaces = Dictionary(uniqueKeysWithValues: grades.enumerated().map { ($1, $0) })
        for (file, assignment) in assignments {
            for work in assignment.occurrences(in: calendar, through: date) {
                var bits: UInt64 = 0
                for grade in work.grades {
                    let place = gradePlaces[grade] ?? grades.count
                    guard place < 64 else { return false }
                    if place == grades.count {
                        grades.append(grade)
                        gradePlaces[grade] = place
                    }
                    bits |= 1 << UInt64(place)
                }
                let subject = subjectPlaces[work.subject] ?? subjects.count
                if subject == subjects.count {
                    subjects.append(work.subject)
                    subjectPlaces[work.subject] = subject
                }
                rows.append(Row(file: file, day: work.assigned.dayNumber, due: work.due?.date.dayNumber ?? .min, subject: subject, grades: bits,
                                draft: work.draft))
            }
        }
        return true
    }

    /// These keys with the files of `edited` given the work of their new models; nil with
    /// more grades than a row has bits for. `old`: the rows the edited files had.
    func replacing(_ edited: [(file: Int, assignment: Assignment)], calendar: SchoolCalendar, through date: CalendarDate) -> (keys: HomeworkKeys, old: [Row])? {
        let files = Set(edited.map(\.file))
        var keys = self
        var old: [Row] = []
        keys.rows = []
        keys.rows.reserveCapacity(rows.count + edited.count)
        for row in rows {
            if files.contains(row.file) { old.append(row) } else { keys.rows.append(row) }
        }
        guard keys.add(edited, calendar: calendar, through: date) else { return nil }
        return (keys, old)
    }

    /// The grades of `bits`.
    func grades(of bits: UInt64) -> [GradeID] {
        grades.indices.filter { bits & (1 << UInt64($0)) != 0 }.map { grades[$0] }
    }

    /// The bits of `grades`, of those the keys know.
    func bits(of grades: some Sequence<GradeID>) -> UInt64 {
        var bits: UInt64 = 0
        for grade in grades {
            if let place = self.grades.firstIndex(of: grade) { bits |= 1 << UInt64(place) }
        }
        return bits
    }

    /// What a schedule of every assignment knows of them all.
    func outline(site: Site, moment: BuildMoment, includeDrafts: Bool) -> HomeworkSchedule.Outline {
        var days = Set<Int>()
        var draftCounts: [GradeID: Int] = [:]
        var withWork: UInt64 = 0
        var hasAssignments = false
        var usedSubjects = Set<Int>()
        let shown = HomeworkKeys.shown(site: site, moment: moment, includeDrafts: includeDrafts)
        for row in rows {
            usedSubjects.insert(row.subject)
            if row.draft && !includeDrafts {
                for grade in grades(of: row.grades) { draftCounts[grade, default: 0] += 1 }
            }
            guard shown(row) else { continue }
            days.insert(row.day)
            withWork |= row.grades
            hasAssignments = true
        }
        return HomeworkSchedule.Outline(schoolDays: days.sorted().map { CalendarDate(dayNumber: $0) }, subjects: Set(usedSubjects.map { subjects[$0] }),
                                        draftCounts: draftCounts, hasAssignments: hasAssignments, gradesWithWork: Set(grades(of: withWork)))
    }

    /// Whether the pages show a row's work at `moment`.
    static func shown(site: Site, moment: BuildMoment, includeDrafts: Bool) -> (Row) -> Bool {
        { row in HomeworkSchedule.isShown(draft: row.draft, on: CalendarDate(dayNumber: row.day), site: site, moment: moment, includeDrafts: includeDrafts) }
    }

    /// What the pages that can show an edit are made of (`HomeworkKeys.pick`).
    struct Pick: Equatable {
        /// The files whose assignments they show.
        var files: Set<Int>
        /// The grades, a bit each, whose feeds, and whose calendars, can show the edit: the
        /// others' hold the same work as before and are not made again.
        var feeds: UInt64
        var calendars: UInt64
    }

    /// What the homework pages that can show the `edited` rows (their old rows and their
    /// new) are made of: every grade's work of the digest's day and all work due from
    /// today on (the summary each grade's pages lead with); of the edited rows' grades,
    /// the work of their days and of the archive's last days; and for a grade's feed or
    /// calendar that holds an edited row, whole days back to the feed's oldest, or what the
    /// calendar holds. More is harmless; a grade's work of a day is always there whole.
    func pick(showing edited: [Row], outline: HomeworkSchedule.Outline, site: Site, moment: BuildMoment, includeDrafts: Bool) -> Pick {
        let today = moment.date.dayNumber
        let digest = HomeworkSchedule.digestDay(site: site, moment: moment)?.dayNumber ?? .min
        let recent = outline.schoolDays.suffix(HomeworkViews.recentDayCount).first?.dayNumber ?? .max
        let calendarFrom = today - HomeworkViews.calendarHistory
        let shown = HomeworkKeys.shown(site: site, moment: moment, includeDrafts: includeDrafts)
        let affected = edited.reduce(UInt64(0)) { $0 | $1.grades }
        let days = Set(edited.map(\.day))
        var feeds: UInt64 = 0
        var calendars: UInt64 = 0
        // The oldest day a feed that shows an edit reaches back to.
        var feedsFrom = Int.max
        for place in grades.indices where affected & (1 << UInt64(place)) != 0 {
            let bit = UInt64(1) << UInt64(place)
            // A feed holds a grade's newest work: with fewer than its length, all of it.
            let newest = rows.lazy.filter { $0.grades & bit != 0 && shown($0) }.map(\.day).sorted(by: >).prefix(HomeworkViews.feedLength)
            let oldest = newest.count < HomeworkViews.feedLength ? Int.min : newest.last!
            if edited.contains(where: { $0.grades & bit != 0 && $0.day >= oldest }) {
                feeds |= bit
                feedsFrom = min(feedsFrom, oldest)
            }
            if edited.contains(where: { $0.grades & bit != 0 && $0.due >= calendarFrom }) { calendars |= bit }
        }
        var files = Set<Int>()
        for row in rows {
            let summary = row.day == digest || row.due >= today
            let pages = row.grades & affected != 0 && (days.contains(row.day) || row.day >= recent)
            let feed = row.grades & feeds != 0 && row.day >= feedsFrom
            let calendar = row.grades & calendars != 0 && row.due >= calendarFrom
            if summary || pages || feed || calendar { files.insert(row.file) }
        }
        return Pick(files: files, feeds: feeds, calendars: calendars)
    }

    static func path(besides cacheFile: String) -> String { cacheFile + "-homework" }

    private static let format = BuildCache.format + "-homework"

    /// Writes the keys beside the cache file and returns their checksum, which the cache
    /// then names; nil when they could not be written.
    func write(besides cacheFile: String) -> UInt64? {
        BuildCache.writeBeside(HomeworkKeys.path(besides: cacheFile), format: HomeworkKeys.format, reservingCapacity: rows.count * 12 + 4096) { writer in
            writer.unsigned(contextHash)
            writer.string(moment)
            writer.integer(fileCount)
            writer.array(subjects) { $0.string($1) }
            writer.array(grades) { $0.string($1.text) }
            writer.array(rows) { writer, row in
                writer.integer(row.file)
                writer.integer(row.day)
                writer.integer(row.due)
                writer.integer(row.subject)
                writer.unsigned(row.grades)
                writer.bool(row.draft)
            }
        }
    }

    /// The keys beside the cache file, when they are those whose checksum is `checksum`
    /// and every row names a subject, grades and a file they know.
    static func read(besides cacheFile: String, checksum: UInt64) -> HomeworkKeys? {
        BuildCache.readBeside(path(besides: cacheFile), format: format, checksum: checksum) { reader throws(BinaryReader.Corrupt) in try HomeworkKeys(from: &reader) }
    }

    /// The days a row may name: those of four-digit years, as dates are written.
    static let days = CalendarDate(year: 0, month: 1, day: 1).dayNumber...CalendarDate(year: 9999, month: 12, day: 31).dayNumber

    /// Refuses keys whose rows name a file, subject, grade or day they cannot have: a row
    /// read is used as an index and a date without further checks.
    init(from reader: inout BinaryReader) throws(BinaryReader.Corrupt) {
        contextHash = try reader.unsigned()
        moment = try reader.string()
        fileCount = try reader.integer()
        subjects = try reader.array { reader throws(BinaryReader.Corrupt) in try reader.string() }
        grades = try reader.array { reader throws(BinaryReader.Corrupt) in GradeID(try reader.string()) }
        guard fileCount >= 0, grades.count <= 64 else { throw BinaryReader.Corrupt() }
        let (fileCount, subjectCount) = (fileCount, subjects.count)
        let gradeBits: UInt64 = grades.count == 64 ? .max : (1 << UInt64(grades.count)) - 1
        rows = try reader.array { reader throws(BinaryReader.Corrupt) in
            let row = Row(file: try reader.integer(), day: try reader.integer(), due: try reader.integer(), subject: try reader.integer(),
                          grades: try reader.unsigned(), draft: try reader.bool())
            guard (0..<fileCount).contains(row.file), (0..<subjectCount).contains(row.subject), row.grades & ~gradeBits == 0,
                  HomeworkKeys.days.contains(row.day), row.due == .min || HomeworkKeys.days.contains(row.due)
            else { throw BinaryReader.Corrupt() }
            return row
        }
    }
}
