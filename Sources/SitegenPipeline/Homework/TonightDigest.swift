import SitegenContent
import SitegenSupport

/// What a grade leads with, for other channels than its page: `tonight.txt` beside its
/// feed, and `sitegen digest` for bots that post it (Mastodon, Signal, a school's SMS).
/// The sentence is the page's, word for word.
public struct TonightDigest: Sendable {
    public struct Work: Sendable {
        public var subject: String
        public var title: String
        public var teacher: String?
        /// `2026-12-04` or `2026-12-04T08:15`, and as readers see it ("Due tomorrow").
        public var due: String?
        public var dueText: String?
        /// The page of the day it was given.
        public var url: String
    }

    public var grade: GradeID
    public var name: String
    public var sentence: String
    /// `tonight`, `lastNight`, `lastSchoolDay` or `dayOff`.
    public var kind: String
    /// The day whose work is listed.
    public var day: CalendarDate?
    /// The grade's page: absolute with a `base_url`, else from the site's root.
    public var url: String
    public var work: [Work]

    public init(grade: GradeID, views: HomeworkViews) {
        let context = views.context
        let digest = HomeworkDigest(grade: grade, schedule: views.schedule)
        let absolute = { (path: String) in (views.site.origin ?? "") + context.url(path) }
        self.grade = grade
        name = context.gradeName(grade)
        sentence = digest.sentence(context)
        kind = switch digest.kind {
        case .tonight: "tonight"
        case .lastNight: "lastNight"
        case .lastSchoolDay: "lastSchoolDay"
        case .dayOff: "dayOff"
        }
        day = digest.day
        url = absolute(views.gradePath(grade))
        work = digest.work.map { assignment in
            Work(subject: assignment.subject, title: assignment.title, teacher: assignment.teacher?.name,
                 due: assignment.due?.description,
                 dueText: assignment.due.map { context.strings.text("dueOn", ["day": context.dueText($0, from: views.schedule.moment.date)]) },
                 url: absolute(views.dayPath(grade, assignment.assigned)))
        }
    }

    /// The sentence, a line per assignment ("Math: Fractions worksheet (Due tomorrow)"),
    /// and the grade's page: plain text, as `tonight.txt` and `sitegen digest` give it.
    public var text: String {
        var lines = [sentence]
        if !work.isEmpty {
            lines.append("")
            lines += work.map { "\($0.subject): \($0.title)" + ($0.dueText.map { " (\($0))" } ?? "") }
        }
        lines += ["", url]
        return lines.joined(separator: "\n") + "\n"
    }

    /// One JSON object, every value escaped: what `sitegen digest --format json` lists.
    public var json: String {
        JSONObject.with { object in
            object.add("grade", grade.text)
            object.add("name", name)
            object.add("sentence", sentence)
            object.add("kind", kind)
            if let day { object.add("day", day.description) }
            object.add("url", url)
            let items = work.map { item in
                JSONObject.with { entry in
                    entry.add("subject", item.subject)
                    entry.add("title", item.title)
                    if let teacher = item.teacher { entry.add("teacher", teacher) }
                    if let due = item.due { entry.add("due", due) }
                    if let dueText = item.dueText { entry.add("dueText", dueText) }
                    entry.add("url", item.url)
                }
            }
            object.addRaw("work", "[" + items.joined(separator: ",") + "]")
        }
    }
}
