import Foundation
import SitegenMarkdown
import SitegenSupport
import SitegenYAML

/// An assignment: `Content/homework/**/*.md`.
public typealias Assignment = Boxed<AssignmentFields>

extension Boxed where Fields == AssignmentFields {
    public init(file: ContentFile, context: ModelContext, log: DiagnosticLog) throws(InvalidContent) {
        self.init(try AssignmentFields(file: file, context: context, log: log))
    }
}

/// What an assignment is made of, checked when its file is read.
public struct AssignmentFields: Sendable {
    public var sourcePath: String
    /// Stable across builds: made from the file's path, so feeds and calendars keep it.
    public var id: String
    public var title: String
    public var teacher: Teacher?
    public var subject: String
    public var grades: [GradeID]
    public var icon: AssignmentIcon
    public var assigned: CalendarDate
    public var due: DateTimeValue?
    /// When the work is given again (`repeat:`): the build gives each time as an
    /// assignment of its own (`occurrences(in:through:)`).
    public var repeats: AssignmentRepeat?
    public var link: WebURL?
    public var draft: Bool
    public var detailsHTML: StoredText
    /// The details without markup, for calendars.
    public var detailsText: StoredText
    public var links: [ContentLink]
    /// The photos its details show, each once.
    public var photos: [ResolvedImage] = []
    public var extra: Extra

    public init(file: ContentFile, context: ModelContext, log: DiagnosticLog) throws(InvalidContent) {
        let errorsBefore = log.entries.count
        let fields = FieldReader(file.frontMatter, keys: ContentKeys.assignment, log: log, emptyLocation: file.start, memo: context.memo)
        let title = fields.requiredText("title")
        let assigned = fields.required("assigned", CalendarDate.self)
        let due = fields.optional("due", DateTimeValue.self)
        icon = fields.optional("icon", AssignmentIcon.self) ?? .other
        link = fields.optional("link", WebURL.self)
        draft = fields.optional("draft", Bool.self) ?? false

        var teacher: Teacher?
        if let teacherID = fields.optional("teacher", String.self) {
            teacher = context.teachers[teacherID]
            if teacher == nil {
                var message = "'teacher' must be the id of a teacher in teachers.yaml, found '\(teacherID)'"
                if let suggestion = Suggestion.closest(to: teacherID, among: Array(context.teachers.keys)) {
                    message += "; did you mean '\(suggestion)'?"
                } else if context.teachers.isEmpty {
                    message += " (Content/teachers.yaml lists no teachers)"
                }
                log.error(at: fields.node("teacher")!.location, message)
            }
        }
        self.teacher = teacher

        let subject = fields.optionalText("subject", within: .heading) ?? teacher?.subject
        if subject == nil, teacher == nil, !fields.has("teacher") {
            log.error(at: fields.mappingLocation, "missing required key 'subject': an assignment without a 'teacher' needs a 'subject'")
        }

        if fields.has("grade"), fields.has("grades") {
            _ = fields.node("grade")
            log.error(at: fields.keyLocation("grades"), "give 'grade' or 'grades', not both")
        }
        let key = fields.has("grades") ? "grades" : "grade"
        var grades = fields.grades(key, of: context.site, example: "[7]", taughtBy: teacher) ?? teacher?.grades ?? []
        if !fields.has(key), grades.isEmpty, teacher == nil, !fields.has("teacher") {
            log.error(at: fields.mappingLocation, "missing required key 'grade': an assignment without a 'teacher' needs a 'grade' or 'grades'")
        }
        grades = grades.filter { context.site.homework.grades.contains($0) }

        if let due, let assigned, due.date < assigned {
            log.error(at: fields.node("due")!.location, "'due' must not be before 'assigned' (\(assigned)), found '\(due)'")
        } else if let due, let assigned, due.time != nil, due.date <= assigned {
            // Work comes out at the release time of the day it is assigned: due before then,
            // it is past due when students first see it.
            if due.instant(in: context.site.timeZone) < context.site.releaseInstant(of: assigned) {
                log.warning(at: fields.node("due")!.location, "'due' is '\(due)', before the work is published at \(context.site.homework.releaseTime) on \(assigned) ('homework.release_time'): it is past due when it first appears")
            }
        }
        repeats = assigned.flatMap { AssignmentRepeat.read(fields, assigned: $0, due: due, calendar: context.site.homework.calendar) }
        if let node = fields.node("source") {
            // Import's record of the post: checked, so that a damaged one is found, and not
            // shown on any page.
            let source = FieldReader(node, keys: fields.nested("source"), log: log, emptyLocation: node.location, prefix: "source.", memo: context.memo)
            _ = source.required("id", String.self)
            _ = source.optional("url", WebURL.self)
            _ = source.optional("updated", String.self)
            _ = source.optional("digest", String.self)
            _ = source.optional("written", String.self)
            source.reportUnknownKeys(what: "assignment front matter")
        }
        extra = fields.extra()
        fields.reportUnknownKeys(what: "assignment front matter")

        let details = ContentBody.render(file, context: context, log: log, includePlainText: true, splitsAtImages: false)
        detailsHTML = StoredText(utf8: details.html[...])
        detailsText = StoredText(details.plainText ?? "")
        links = details.links
        photos = details.photos

        guard let title, let assigned, let subject, !log.entries[errorsBefore...].contains(where: { $0.severity == .error }) else {
            throw InvalidContent()
        }
        self.sourcePath = file.path
        let relative = file.contentPath.hasPrefix("homework/") ? file.contentPath.dropFirst("homework/".count) : Substring(file.contentPath)
        self.id = Slug(making: String(relative.dropLast(3)))?.text ?? "assignment"
        self.title = title
        self.assigned = assigned
        self.due = due
        self.subject = subject
        self.grades = grades
    }

    /// Every field, as a store of models gives them back.
    public init(sourcePath: String, id: String, title: String, teacher: Teacher?, subject: String, grades: [GradeID], icon: AssignmentIcon, assigned: CalendarDate, due: DateTimeValue?, repeats: AssignmentRepeat? = nil, link: WebURL?, draft: Bool, detailsHTML: StoredText, detailsText: StoredText, links: [ContentLink], extra: Extra = .none, photos: [ResolvedImage] = []) {
        self.sourcePath = sourcePath
        self.id = id
        self.title = title
        self.teacher = teacher
        self.subject = subject
        self.grades = grades
        self.icon = icon
        self.assigned = assigned
        self.due = due
        self.repeats = repeats
        self.link = link
        self.draft = draft
        self.detailsHTML = detailsHTML
        self.detailsText = detailsText
        self.links = links
        self.extra = extra
        self.photos = photos
    }
}

extension BinaryWriter {
    public mutating func assignment(_ value: Assignment) {
        string(value.sourcePath)
        string(value.id)
        string(value.title)
        optional(value.teacher) { $0.teacher($1) }
        string(value.subject)
        array(value.grades) { $0.string($1.text) }
        string(value.icon.rawValue)
        date(value.assigned)
        optional(value.due) { $0.dateTime($1) }
        optional(value.repeats) { $0.assignmentRepeat($1) }
        optional(value.link) { $0.string($1.text) }
        bool(value.draft)
        text(value.detailsHTML)
        text(value.detailsText)
        array(value.links) { $0.link($1) }
        extra(value.extra)
        array(value.photos) { $0.image($1) }
    }
}

extension AssignmentFields {
    public init(from reader: inout BinaryReader, teachers: KnownTeachers?) throws(BinaryReader.Corrupt) {
        let sourcePath = try reader.string()
        let id = try reader.string()
        let title = try reader.string()
        let teacher = try reader.optional { reader throws(BinaryReader.Corrupt) in try reader.teacher(known: teachers) }
        let subject = try reader.string()
        let grades = try reader.array { reader throws(BinaryReader.Corrupt) in GradeID(try reader.string()) }
        guard let icon = AssignmentIcon(rawValue: try reader.string()) else { throw BinaryReader.Corrupt() }
        let assigned = try reader.date()
        let due = try reader.optional { reader throws(BinaryReader.Corrupt) in try reader.dateTime() }
        let repeats = try reader.optional { reader throws(BinaryReader.Corrupt) in try reader.assignmentRepeat() }
        let link = try reader.optional { reader throws(BinaryReader.Corrupt) in try reader.webURL() }
        let draft = try reader.bool()
        let detailsHTML = StoredText(utf8: try reader.slice())
        let detailsText = StoredText(utf8: try reader.slice())
        let links = try reader.array { reader throws(BinaryReader.Corrupt) in try reader.link() }
        let extra = try reader.extra()
        let photos = try reader.array { reader throws(BinaryReader.Corrupt) in try reader.image() }
        self.init(sourcePath: sourcePath, id: id, title: title, teacher: teacher, subject: subject, grades: grades, icon: icon, assigned: assigned, due: due, repeats: repeats, link: link, draft: draft, detailsHTML: detailsHTML, detailsText: detailsText, links: links, extra: extra, photos: photos)
    }
}
