import Foundation
import SitegenContent
import SitegenMustache
import SitegenSupport
import SitegenYAML

/// The starter site `sitegen init` writes: `Starter/` of the repository, carried in the binary.
enum StarterSite {
    static func file(_ path: String) -> [UInt8]? {
        if let text = textFiles[path] { return Array(text.utf8) }
        if let encoded = binaryFiles[path], let data = Data(base64Encoded: encoded) { return Array(data) }
        return nil
    }

    static var paths: [String] { (Array(textFiles.keys) + Array(binaryFiles.keys)).sorted() }
}

/// A problem with `sitegen init` or `sitegen new`, in words for the terminal.
public struct ScaffoldError: Error, CustomStringConvertible {
    public var description: String
}

/// `sitegen init` and `sitegen new`: new sites and new content files, never overwriting one.
public enum Scaffold {
    /// Where `sitegen init`'s workflow publishes the site.
    public enum Publisher: String, CaseIterable, Sendable {
        case github, gitlab, none

        /// The starter's files that belong to this publisher alone.
        var files: [String] {
            switch self {
            case .github: [".github/workflows/publish.yml.mustache"]
            case .gitlab: [".gitlab-ci.yml.mustache"]
            case .none: []
            }
        }
    }

    /// The sitegen that writes a site: the workflow it writes installs the same one.
    public struct SitegenRelease: Sendable {
        public var version: String
        /// The commit the running sitegen was built from; nil when that is unknown.
        public var commit: String?
        /// True when it was built from changed files of that commit.
        public var modified: Bool
        /// Its GitHub repository, `owner/name`; nil when unknown.
        public var repository: String?

        public init(version: String, commit: String?, modified: Bool = false, repository: String?) {
            self.version = version
            self.commit = commit
            self.modified = modified
            self.repository = repository
        }

        /// Stands for the repository in a workflow when it is unknown; `init` says to change it.
        static let placeholderRepository = "SITEGEN-OWNER/sitegen"

        /// `owner/name@<commit>`, pinned to the commit the version was built from (a tag can
        /// be moved, a commit cannot), or to the version's tag when the commit is unknown.
        var actionReference: String {
            "\(repository ?? Self.placeholderRepository)@\(commit ?? "v\(version)")"
        }

        /// Where a page of this version's docs is read, at a section
        /// (`reference/content-keys.md`, `articles`): on GitHub, or in the repository when that is unknown.
        func docs(_ page: String, section: String) -> String {
            repository.map { "https://github.com/\($0)/blob/v\(version)/docs/\(page)#\(section)" }
                ?? "docs/\(page) (#\(section)) in sitegen's repository"
        }

        /// The container image of this version, `ghcr.io/owner/name:0.1.0`.
        var image: String {
            "ghcr.io/\((repository ?? Self.placeholderRepository).lowercased()):\(version)"
        }
    }

    public struct InitRequest: Sendable {
        public var title: String
        public var timeZone: String
        public var currency: String
        public var publisher: Publisher
        public var sitegen: SitegenRelease

        public init(title: String, timeZone: String, currency: String, publisher: Publisher, sitegen: SitegenRelease) {
            self.title = title
            self.timeZone = timeZone
            self.currency = currency
            self.publisher = publisher
            self.sitegen = sitegen
        }
    }

    /// What `sitegen init` wrote, and what the user must do before the first publish.
    public struct InitResult: Sendable {
        /// Paths relative to the new site's folder.
        public var files: [String]
        public var nextSteps: [String]
    }

    static let releaseTime = TimeOfDay(hour: 14, minute: 0)

    /// Writes a working starter site into `folder`, which must be empty or not exist.
    public static func initSite(at folder: URL, _ request: InitRequest, now: Date = Date()) throws(ScaffoldError) -> InitResult {
        let fileManager = FileManager.default
        if let existing = try? fileManager.contentsOfDirectory(atPath: folder.path), !existing.isEmpty {
            throw ScaffoldError(description: "\(folder.path) is not empty; sitegen init writes a new site into an empty or new folder")
        }
        let zoneName = request.timeZone
        guard let zone = TimeZoneName.zone(named: zoneName) else {
            let hint = Suggestion.closest(to: zoneName, among: TimeZone.knownTimeZoneIdentifiers).map { "; did you mean '\($0)'?" } ?? ""
            throw ScaffoldError(description: "--timezone must be an IANA time zone like Asia/Hong_Kong, found '\(zoneName)'\(hint)")
        }
        let currency = request.currency
        guard currency.utf8.count == 3, CurrencyCode.known.contains(currency) else {
            throw ScaffoldError(description: "--currency must be an ISO 4217 currency code like HKD, found '\(currency)'")
        }
        let today = Scaffold.today(in: zone, now: now)
        let schedule = PublishSchedule(release: (releaseTime.hour, releaseTime.minute), zone: zone, from: now)
        let sitegen = request.sitegen
        let context: MustacheValue = [
            "title": .string(YAMLText.scalar(request.title)),
            "timezone": .string(zoneName),
            "currency": .string(currency),
            "today": .string(today.description),
            "tomorrow": .string(CalendarDate(dayNumber: today.dayNumber + 1).description),
            "releaseTime": .string(releaseTime.description),
            "releaseCron": .string(releaseTime.cron),
            "schedule": .array(schedule.lines.map { line -> MustacheValue in
                ["cron": .string(line.cron), "utcTime": .string(line.utcTime), "offset": .string(line.offsetText)]
            }),
            "daylightSaving": .bool(schedule.lines.count > 1),
            "action": .string(sitegen.actionReference),
            "actionVersion": .string("v\(sitegen.version)"),
            "actionIsPlaceholder": .bool(sitegen.repository == nil),
            "placeholder": .string(SitegenRelease.placeholderRepository),
            "image": .string(sitegen.image),
            "siteDocs": .string(sitegen.docs("reference/content-keys.md", section: "siteyaml")),
            "teachersDocs": .string(sitegen.docs("reference/content-keys.md", section: "teachersyaml")),
            "contentDocs": .string(sitegen.docs("content.md", section: "the-files-of-a-site")),
            "github": .bool(request.publisher == .github),
            "gitlab": .bool(request.publisher == .gitlab),
        ]
        let excluded = Set(Publisher.allCases.filter { $0 != request.publisher }.flatMap(\.files))
        var files: [(String, [UInt8])] = []
        for path in StarterSite.paths where !excluded.contains(path) {
            guard let bytes = StarterSite.file(path) else { continue }
            if path.hasSuffix(".mustache") {
                do {
                    let template = try MustacheTemplate(name: path, source: String(decoding: bytes, as: UTF8.self), path: "Starter/\(path)")
                    let rendered = try MustacheLibrary(templates: [template], missingTemplates: .fail).renderBytes(template, with: context)
                    files.append((String(path.dropLast(".mustache".count)), rendered))
                } catch {
                    throw ScaffoldError(description: "the starter file \(path) is broken: \(error)")
                }
            } else {
                files.append((path, bytes))
            }
        }
        do {
            for (path, bytes) in files {
                let target = folder.appendingPathComponent(path)
                try fileManager.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(bytes).write(to: target, options: .withoutOverwriting)
            }
        } catch {
            throw ScaffoldError(description: "cannot write the starter site into \(folder.path): \(error.localizedDescription)")
        }
        return InitResult(files: files.map(\.0), nextSteps: nextSteps(request, schedule: schedule))
    }

    /// What to do before the first publish, in words for the terminal.
    private static func nextSteps(_ request: InitRequest, schedule: PublishSchedule) -> [String] {
        let release = "\(releaseTime) \(request.timeZone)"
        var steps: [String] = []
        switch request.publisher {
        case .github:
            steps.append("To publish on GitHub Pages: push the site to a GitHub repository, and in its Settings → Pages set Source to \"GitHub Actions\" (the first deploy fails without it). .github/workflows/publish.yml then publishes on every push to main and daily at \(release) (cron in UTC: \(schedule.lines.map(\.cron).joined(separator: " and "))).")
            if request.sitegen.repository == nil {
                steps.append("This sitegen does not know its GitHub repository (it was built from a checkout without a GitHub remote): replace \(SitegenRelease.placeholderRepository) in .github/workflows/publish.yml with the owner/name of the sitegen repository you use.")
            }
            if let commit = request.sitegen.commit, request.sitegen.modified {
                steps.append("This sitegen was built from changed files of commit \(commit), which the workflow pins: the action of that commit may differ from this sitegen.")
            } else if request.sitegen.commit == nil {
                steps.append("This sitegen does not know the commit it was built from: the workflow names the release tag v\(request.sitegen.version); check that it exists.")
            }
        case .gitlab:
            steps.append("To publish on GitLab Pages: push the site to a GitLab project; .gitlab-ci.yml publishes it on every push to the default branch. For the daily publish, add a pipeline schedule (Build → Pipeline schedules) with the interval pattern \"\(releaseTime.cron)\" and the time zone \(request.timeZone), which GitLab keeps right through daylight saving.")
            if request.sitegen.repository == nil {
                steps.append("This sitegen does not know its GitHub repository: replace \(SitegenRelease.placeholderRepository.lowercased()) in the image of .gitlab-ci.yml with the owner/name of the sitegen repository you use.")
            }
        case .none:
            break
        }
        return steps
    }

    public enum ContentKind: String, CaseIterable, Sendable {
        case article, assignment, page

        /// Its section of docs/content.md.
        var docsSection: String { rawValue + "s" }
    }

    public struct NewContent: Sendable {
        public var kind: ContentKind
        public var title: String
        public var grade: String?
        public var teacher: String?
        public var subject: String?
        /// `YYYY-MM-DD`; today in the site's time zone when nil.
        public var date: String?
        /// A photo to copy beside a new article as its cover.
        public var cover: URL?

        public init(kind: ContentKind, title: String, grade: String? = nil, teacher: String? = nil, subject: String? = nil, date: String? = nil, cover: URL? = nil) {
            self.kind = kind
            self.title = title
            self.grade = grade
            self.teacher = teacher
            self.subject = subject
            self.date = date
            self.cover = cover
        }
    }

    /// What `newContent` wrote, relative to the site.
    public struct NewFiles: Sendable, Equatable {
        /// The content file.
        public var path: String
        /// The cover photo copied beside an article.
        public var cover: String?
    }

    /// Writes a new content file with every front-matter key, the optional ones commented
    /// out: an article as a draft in a folder of its own, with its cover photo beside it
    /// when one is given; an assignment in Content/homework/, named by its day.
    public static func newContent(_ request: NewContent, siteRoot: URL, sitegen: SitegenRelease, now: Date = Date()) throws(ScaffoldError) -> NewFiles {
        let siteFile = siteRoot.appendingPathComponent("Content/site.yaml")
        guard let data = FileManager.default.contents(atPath: siteFile.path) else {
            throw ScaffoldError(description: "no site at \(siteRoot.path): expected Content/site.yaml (run 'sitegen init' to start one)")
        }
        let log = DiagnosticLog()
        let node = try? YAMLReader.read(Array(data), path: Site.path)
        let site = Site(node: node, log: log)
        let teachers = teacherList(siteRoot: siteRoot, site: site)

        let title = request.title.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !title.isEmpty else { throw ScaffoldError(description: "give the new \(request.kind.rawValue) a title, like: sitegen new \(request.kind.rawValue) \"Lovely Breakfast\"") }
        guard let slug = Slug(making: title) else {
            throw ScaffoldError(description: "the title '\(title)' has no letter or digit to make a file name from")
        }
        var date = Scaffold.today(in: site.timeZone, now: now)
        if let text = request.date {
            guard let given = CalendarDate(parsing: text[...]), (try? given.check()) != nil else {
                throw ScaffoldError(description: "--date must be a date like 2026-12-01, found '\(text)'")
            }
            date = given
        }

        if request.cover != nil, request.kind != .article {
            throw ScaffoldError(description: "--cover is for articles")
        }
        let path: String
        var text: String
        var cover: (source: URL, path: String, line: String)?
        switch request.kind {
        case .article:
            // A folder of its own: its photos go beside it, and two articles' cover.jpg
            // cannot collide.
            let folder = "Content/articles/\(slug.text)"
            if FileManager.default.fileExists(atPath: siteRoot.appendingPathComponent(folder).path) {
                throw ScaffoldError(description: "\(folder)/ already exists; sitegen new never overwrites a file (give another title)")
            }
            path = folder + "/index.md"
            if let source = request.cover { cover = try coverPhoto(source, folder: folder) }
            text = articleText(title: title, slug: slug, date: date, site: site, cover: cover?.line)
        case .page:
            path = "Content/pages/\(slug.text).md"
            text = "---\ntitle: \(YAMLText.scalar(title))\n# summary: One sentence for link previews.\n# slug: \(slug.text)\n# draft: true\n---\nWrite the page here.\n"
        case .assignment:
            path = "Content/homework/\(date)-\(slug.text).md"
            text = try assignmentText(request, title: title, date: date, site: site, teachers: teachers)
        }
        // Where every key of the file is explained, first in its front matter.
        text = "---\n# Every key: \(sitegen.docs("reference/content-keys.md", section: request.kind.docsSection))\n" + text.dropFirst("---\n".count)
        let target = siteRoot.appendingPathComponent(path)
        if FileManager.default.fileExists(atPath: target.path) {
            throw ScaffoldError(description: "\(path) already exists; sitegen new never overwrites a file (give another title)")
        }
        do {
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: target, options: .withoutOverwriting)
            if let cover { try FileManager.default.copyItem(at: cover.source, to: siteRoot.appendingPathComponent(cover.path)) }
        } catch {
            throw ScaffoldError(description: "cannot write \(path): \(error.localizedDescription)")
        }
        return NewFiles(path: path, cover: cover?.path)
    }

    /// The photo at `source` as an article's cover in `folder`: its path there, and the
    /// front matter's `cover:` line, with the size read from the file for an image the build
    /// does not make sizes of (a GIF, an SVG).
    private static func coverPhoto(_ source: URL, folder: String) throws(ScaffoldError) -> (source: URL, path: String, line: String) {
        guard let bytes = FileManager.default.contents(atPath: source.path) else {
            throw ScaffoldError(description: "--cover: cannot read \(source.path)")
        }
        guard case .size(let width, let height) = ImageSize.read(Array(bytes)) else {
            throw ScaffoldError(description: "--cover: \(source.path) is not a photo sitegen can read the size of (\(ImageSize.formatName(of: Array(bytes.prefix(64))))): give a JPEG, PNG, GIF, WebP or AVIF")
        }
        let name = source.lastPathComponent
        guard ImageLookup.normalize(name) == name, !name.hasPrefix(".") else {
            throw ScaffoldError(description: "--cover: rename \(name) to a plain file name like cover.jpg")
        }
        let size = PhotoFile.format(of: Array(bytes.prefix(ImageSize.headerLength))) == nil ? ", width: \(width), height: \(height)" : ""
        return (source, folder + "/" + name, "cover: {src: \(YAMLText.scalar(name)), alt: Say what the photo shows\(size)}")
    }

    private static func articleText(title: String, slug: Slug, date: CalendarDate, site: Site, cover: String?) -> String {
        """
        ---
        title: \(YAMLText.scalar(title))
        date: \(date)
        # updated: \(date)             # when it last changed, shown as "Updated …"
        # summary: One or two sentences for cards, feeds and link previews (else the first paragraph).
        \(cover ?? "# cover: {src: cover.jpg, alt: What the photo shows}")
        # meal: Breakfast
        # price: 34                       # in \(site.currency.code); or {amount: 34, currency: HKD}
        # rating: 4.5                     # 0 to 5, in halves
        # author: {name: \(site.author?.name ?? "Your Name"), username: \(site.author?.username ?? "you")}
        # restaurant:
        #   name: Toast Box
        #   address: G/F, JD Mall, 233-239 Nathan Rd, Jordan
        #   lat: 22.304865                # with lon, puts the restaurant on the map
        #   lon: 114.171386
        # tags: [toast, milk tea]
        # slug: \(slug.text)
        # extra: {hours: 7am to 3pm}      # fields of your own, for your templates
        draft: true                       # delete this line to publish the article
        ---
        The story starts here. A paragraph holding only a photo, written
        `![What it shows](photo.jpg)` with the photo beside this file, starts a new section
        with that photo and the paragraphs after it.

        """
    }

    private static func assignmentText(_ request: NewContent, title: String, date: CalendarDate, site: Site, teachers: [String: Teacher]) throws(ScaffoldError) -> String {
        var teacher: Teacher?
        if let id = request.teacher {
            guard let found = teachers[id] else {
                let hint = Suggestion.closest(to: id, among: Array(teachers.keys)).map { "; did you mean '\($0)'?" } ?? ""
                throw ScaffoldError(description: "no teacher '\(id)' in Content/teachers.yaml\(hint)")
            }
            teacher = found
        }
        if let grade = request.grade, !site.homework.grades.contains(GradeID(grade)) {
            throw ScaffoldError(description: "grade '\(grade)' is not one of the grades in site.yaml (\(site.homework.grades.map(\.text).joined(separator: ", ")))")
        }
        guard teacher != nil || request.subject != nil else {
            throw ScaffoldError(description: "give the assignment a --teacher (an id of teachers.yaml) or a --subject")
        }
        guard request.grade != nil || teacher != nil else {
            throw ScaffoldError(description: "give the assignment a --grade")
        }
        var lines = ["---", "title: \(YAMLText.scalar(title))"]
        lines.append(teacher.map { "teacher: \($0.id)" } ?? "# teacher: ms-lee")
        // Notes in one column, as the article's are.
        func noted(_ line: String, _ note: String) -> String {
            line + String(repeating: " ", count: max(1, 34 - line.count)) + "# " + note
        }
        lines.append(request.subject.map { "subject: \(YAMLText.scalar($0))" } ?? noted("# subject: \(teacher?.subject ?? "Math")", "the teacher's subject when not given"))
        lines.append(request.grade.map { "grade: \(YAMLText.scalar($0))" } ?? noted("# grade: \(teacher?.grades.first?.text ?? "8")", "the teacher's grades when not given"))
        lines.append(noted("# grades: [7, 8]", "several grades, in place of grade"))
        lines.append("assigned: \(date)")
        let next = CalendarDate(dayNumber: date.dayNumber + 1)
        lines.append(noted("# due: \(next)", "or with a time: \(next)T08:15"))
        lines.append("# repeat: {every: school day, until: \(CalendarDate(dayNumber: date.dayNumber + 28))}")
        lines.append(noted("# icon: worksheet", AssignmentIcon.allCases.map(\.rawValue).joined(separator: ", ")))
        lines.append("# link: https://example.org/worksheet")
        lines.append("# draft: true")
        lines.append(noted("# extra: {room: 204}", "fields of your own, for your templates"))
        lines += ["---", "What to do, in Markdown.", ""]
        return lines.joined(separator: "\n")
    }

    private static func teacherList(siteRoot: URL, site: Site) -> [String: Teacher] {
        guard let data = FileManager.default.contents(atPath: siteRoot.appendingPathComponent("Content/teachers.yaml").path),
              let node = try? YAMLReader.read(Array(data), path: Teacher.path)
        else { return [:] }
        return Dictionary(Teacher.all(from: node, site: site, log: DiagnosticLog()).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    static func today(in zone: TimeZone, now: Date) -> CalendarDate {
        let seconds = Int(now.timeIntervalSince1970) + zone.secondsFromGMT(for: now)
        return CalendarDate(dayNumber: seconds.floorDivided(by: 86_400))
    }
}

extension Int {
    func floorModulo(_ divisor: Int) -> Int {
        let remainder = self % divisor
        return remainder < 0 ? remainder + divisor : remainder
    }
}

extension TimeOfDay {
    /// A cron line that runs daily at this time (in the zone the scheduler is told).
    var cron: String { "\(minute) \(hour) * * *" }
}
