import Foundation
import SitegenSupport
import SitegenYAML

/// A problem list that stopped a model from being built; its diagnostics are already logged.
public struct InvalidContent: Error {}

/// `site.yaml`: the settings of the whole site.
public struct Site: Sendable {
    public struct Author: Sendable, Hashable {
        public var name: String
        public var username: String?

        public init(name: String, username: String? = nil) {
            self.name = name
            self.username = username
        }
    }

    public struct Homework: Sendable {
        /// `homework.title`; without it, the theme's word.
        public var writtenTitle: String?
        public var school: String
        public var grades: [GradeID]
        public var releaseTime: TimeOfDay
        /// The order sentences name subjects in; teachers.yaml's order fills in the rest.
        public var subjects: [String]
        public var calendar = SchoolCalendar.mondayToFriday
        /// Names given in `homework.grades` (`{id: 6, name: Primary 6}`).
        public var gradeNames: [GradeID: String] = [:]

    }

    public var title: String
    public var description: String
    public var baseURL: WebURL? {
        didSet { (origin, basePath) = Site.parts(of: baseURL) }
    }
    /// `base_url` without its path: "https://example.org". Every URL of every page uses
    /// these two, so they are worked out once.
    public private(set) var origin: String?
    /// The path the site is served under, from `base_url`: "/" or "/food/".
    public private(set) var basePath = "/"
    /// True when site.yaml names no `base_url` at all (a wrong one is an error of its own).
    public var lacksBaseURL: Bool
    public var language: LanguageTag
    public var timeZone: TimeZone
    public var timeZoneName: String
    public var currency: CurrencyCode
    public var theme: String
    public var mapZoom: Int
    /// Articles on each page of the home page and of meal and tag pages.
    public var articlesPerPage: Int
    /// Where Leaflet is read from for `/map/`: `map.leaflet`, relative to the site.
    public var leafletFolder: String?
    public var leafletLocation: SourceLocation?
    /// Where `theme` was written, for the error of a theme with no folder.
    public var themeLocation: SourceLocation?
    public var author: Author?
    public var allowsRawHTML: Bool
    public var homework: Homework
    /// Where `homework.grades` is written, for errors about grades that are not in it.
    public var gradesLocation: SourceLocation
    public var extra: Extra
    /// `images:`, how photos are published.
    public var images = ImageSettings()
    /// `strings:`, the theme's words the site writes otherwise, with where each is.
    public var strings: [(key: String, value: String, location: SourceLocation)] = []
    /// False when site.yaml is not valid YAML: its settings are defaults, and checks
    /// against them (is this grade listed?) would only repeat that one error.
    public var isReadable: Bool

    public static let path = "Content/site.yaml"

    /// Reads site.yaml. A wrong value is logged and replaced by its default so that the
    /// rest of the site can still be checked: one build reports every problem, and the
    /// log's errors stop the build before anything is rendered.
    /// `isReadable` is false when site.yaml is not valid YAML: its error is reported, and
    /// missing keys are not reported on top of it.
    public init(node: YAMLNode?, isReadable: Bool = true, log: DiagnosticLog) {
        let fields = FieldReader(node, keys: ContentKeys.site, log: log, emptyLocation: SourceLocation(path: Site.path, line: 1, column: 1))
        self.isReadable = isReadable
        let title = isReadable ? fields.requiredText("title") : fields.optionalText("title", within: .heading)
        description = fields.optionalText("description", within: .summary) ?? ""
        baseURL = fields.optional("base_url", WebURL.self)
        if let url = baseURL, !Site.isPublishingAddress(url), let node = fields.node("base_url") {
            log.error(at: node.location, "'base_url' must be \(Site.publishingAddress), found '\(url.text)'")
            baseURL = nil
        }
        (origin, basePath) = Site.parts(of: baseURL)
        lacksBaseURL = isReadable && !fields.has("base_url")
        language = fields.optional("language", LanguageTag.self) ?? LanguageTag("en")
        let zone = fields.optional("timezone", TimeZoneName.self)
        timeZone = zone?.zone ?? TimeZone(identifier: "UTC")!
        timeZoneName = zone?.zone.identifier ?? "UTC"
        currency = fields.optional("currency", CurrencyCode.self) ?? CurrencyCode("USD")
        let theme = fields.optional("theme", String.self) ?? "default"
        if !Site.isFolderName(theme) {
            log.error(at: fields.node("theme")?.location ?? fields.mappingLocation,
                      "'theme' must be the name of a folder under Themes/ (letters, digits, '-', '_' and '.'), found '\(theme)'")
        }
        self.theme = theme
        themeLocation = fields.node("theme")?.location

        var perPage = 24
        if let value = fields.optional("articles_per_page", Int.self) {
            if (1...1000).contains(value) {
                perPage = value
            } else {
                log.error(at: fields.node("articles_per_page")!.location, "'articles_per_page' must be a whole number from 1 to 1000, found '\(value)'")
            }
        }
        articlesPerPage = perPage
        var zoom = 17
        var leafletFolder: String?
        if let map = fields.mapping("map", expectation: "a mapping like {zoom: 17}") {
            leafletFolder = map.optional("leaflet", String.self)
            leafletLocation = map.node("leaflet")?.location
            if let value = map.optional("zoom", Int.self) {
                if (1...19).contains(value) {
                    zoom = value
                } else {
                    log.error(at: map.node("zoom")!.location, "'map.zoom' must be a whole number from 1 to 19, found '\(value)'")
                }
            }
            map.reportUnknownKeys(what: "site.yaml")
        }
        mapZoom = zoom
        self.leafletFolder = leafletFolder

        if let author = fields.mapping("author", expectation: "a mapping like {name: The Dreamer, username: dreamer}") {
            if let name = author.requiredText("name") {
                self.author = Author(name: name, username: author.optional("username", Username.self)?.text)
            }
            author.reportUnknownKeys(what: "site.yaml")
        }

        var unsafe = false
        if let markdown = fields.mapping("markdown", expectation: "a mapping like {unsafe: true}") {
            unsafe = markdown.optional("unsafe", Bool.self) ?? false
            markdown.reportUnknownKeys(what: "site.yaml")
        }
        allowsRawHTML = unsafe

        (homework, gradesLocation) = Site.homework(fields)
        images = ImageSettings(fields)

        extra = fields.extra()
        strings = Site.strings(fields)
        fields.reportUnknownKeys(what: "site.yaml")
        self.title = title ?? ""
    }

    static let gradeKeys = KeyTable([
        ContentKey("id", "a grade like `6` or `K`", default: "required", "The grade, as assignments and teachers name it and as its pages' addresses have it.", example: "id: 6"),
        ContentKey("name", "text", default: "\"6th grade\", \"Kindergarten\"", "How sentences, titles, feeds and calendars name it.", example: "name: Primary 6"),
    ])

    /// `homework.grades`: each a grade (`6`) or a grade with its name (`{id: 6, name: Primary
    /// 6}`); a wrong entry is an error at it, and is left out.
    private static func grades(_ section: FieldReader) -> ([GradeID], [GradeID: String]) {
        guard let node = section.node("grades") else { return ([], [:]) }
        guard let items = node.sequence else { return (section.list("grades", GradeID.self) ?? [], [:]) }
        var grades: [GradeID] = []
        var names: [GradeID: String] = [:]
        for item in items {
            if item.mapping != nil {
                let fields = FieldReader(item, keys: gradeKeys, log: section.log, emptyLocation: item.location, prefix: section.name("grades") + ".", memo: section.memo)
                let id = fields.required("id", GradeID.self)
                let name = fields.optionalText("name")
                fields.reportUnknownKeys(what: "site.yaml")
                guard let id else { continue }
                grades.append(id)
                if let name { names[id] = name }
            } else {
                do throws(ValueProblem) {
                    grades.append(try GradeID(node: item))
                } catch {
                    let why: String
                    switch error {
                    case .mismatch: why = "must be \(GradeID.expectation), or a mapping like {id: 6, name: Primary 6}, found \(item.shortDescription)"
                    case .invalid(let reason): why = reason
                    }
                    section.log.error(at: item.location, "a grade in '\(section.name("grades"))' \(why)")
                }
            }
        }
        return (grades, names)
    }

    /// `homework:`, and where its grades are written.
    private static func homework(_ fields: FieldReader) -> (Homework, SourceLocation) {
        var homework = Homework(writtenTitle: nil, school: "", grades: [], releaseTime: TimeOfDay(hour: 14, minute: 0), subjects: [])
        guard let section = fields.mapping("homework", expectation: "a mapping like {grades: [6, 7, 8]}") else { return (homework, fields.mappingLocation) }
        homework.writtenTitle = section.optionalText("title", within: .heading)
        homework.school = section.optionalText("school", within: .heading) ?? ""
        homework.releaseTime = section.optional("release_time", TimeOfDay.self) ?? homework.releaseTime
        homework.subjects = Site.subjectOrder(section)
        homework.calendar = SchoolCalendar(section)
        let gradesLocation = section.node("grades")?.location ?? section.mappingLocation
        let (grades, names) = Site.grades(section)
        homework.gradeNames = names
        var seen: Set<GradeID> = []
        for (index, grade) in grades.enumerated() where !seen.insert(grade).inserted {
            let location = section.node("grades")?.sequence?[index].location ?? gradesLocation
            section.log.error(at: location, "grade '\(grade)' is listed twice in 'homework.grades'")
        }
        var unique: Set<GradeID> = []
        homework.grades = grades.filter { unique.insert($0).inserted }
        section.reportUnknownKeys(what: "site.yaml")
        return (homework, gradesLocation)
    }

    /// `strings:`, each word with where it is.
    private static func strings(_ fields: FieldReader) -> [(key: String, value: String, location: SourceLocation)] {
        guard let node = fields.node("strings") else { return [] }
        guard let pairs = node.mapping else {
            if node.scalar?.isNull != true {
                fields.log.error(at: node.location, "'strings' must be a mapping of the theme's words like {skipToContent: Skip to the article}, found \(node.shortDescription)")
            }
            return []
        }
        var strings: [(key: String, value: String, location: SourceLocation)] = []
        for pair in pairs {
            guard let text = pair.value.scalar, !text.isNull else {
                fields.log.error(at: pair.value.location, "'strings.\(pair.key)' must be text, found \(pair.value.shortDescription)")
                continue
            }
            strings.append((pair.key, text.text, pair.keyLocation))
        }
        return strings
    }

    public static func isFolderName(_ name: String) -> Bool {
        !name.isEmpty && !name.hasPrefix(".") && name.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "_" || $0 == "."
        }
    }

    public static let publishingAddress = "where the site is published, an http or https URL without a query or fragment like https://x.github.io/food/"

    /// `homework.subjects`: a subject named twice keeps its first place, with a warning.
    private static func subjectOrder(_ section: FieldReader) -> [String] {
        guard let subjects = section.list("subjects", String.self), let items = section.node("subjects")?.sequence else { return [] }
        var order: [String] = []
        for (subject, item) in zip(subjects, items) {
            guard !Summary.isBlank(subject) else {
                section.log.error(at: item.location, "'\(section.name("subjects"))' must not list a blank subject, found \(item.shortDescription)")
                continue
            }
            guard !order.contains(subject) else {
                section.log.warning(at: item.location, "'\(section.name("subjects"))' lists '\(subject)' twice: its first place counts")
                continue
            }
            order.append(subject)
        }
        return order
    }

    /// Whether `url` can be the start of every page's address: a query or a fragment would
    /// end up in the middle of them (and was dropped without a word).
    public static func isPublishingAddress(_ url: WebURL) -> Bool {
        !url.text.contains("?") && !url.text.contains("#")
    }

    /// When the work assigned on `day` is published, as seconds since 1970.
    public func releaseInstant(of day: CalendarDate) -> Int {
        DateTimeValue(date: day, time: homework.releaseTime).instant(in: timeZone)
    }

    public static func parts(of baseURL: WebURL?) -> (origin: String?, basePath: String) {
        guard let baseURL else { return (nil, "/") }
        let parts = baseURL.text.split(separator: "://", maxSplits: 1)
        guard parts.count == 2 else { return (nil, "/") }
        let host = parts[1].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let afterHost = parts[1].dropFirst(host.count)
        var path = String(afterHost.prefix { $0 != "?" && $0 != "#" })
        if !path.hasPrefix("/") { path = "/" + path }
        if !path.hasSuffix("/") { path += "/" }
        return ("\(parts[0].lowercased())://\(host)", path)
    }

    /// The host of `base_url`, for ids in feeds and calendars.
    public var host: String? {
        origin.map { String($0.split(separator: "://").last ?? "").split(separator: ":").first.map(String.init) ?? "" }
    }
}

extension FieldReader {
    /// The grades under `key` (a list, or one grade) of an assignment or a teacher, each
    /// checked against site.yaml's; nil when the key is absent or is no list of grades.
    /// An empty list is an error (the work would be on no grade's page), which shows
    /// `example` of a list. An assignment's grade that its `teacher` does not teach gets a
    /// note: a stand-in teacher's work goes on that grade's page.
    public func grades(_ key: String, of site: Site, example: String, taughtBy teacher: Teacher? = nil) -> [GradeID]? {
        guard let node = node(key), var grades = list(key, GradeID.self, singleAllowed: true) else { return nil }
        var locations = node.sequence?.map(\.location) ?? [node.location]
        if Set(grades).count < grades.count {
            // Listed twice, the work would be shown twice on the grade's pages and feed.
            var kept: [(grade: GradeID, location: SourceLocation)] = []
            for (grade, location) in zip(grades, locations) {
                guard !kept.contains(where: { $0.grade == grade }) else {
                    log.warning(at: location, "'\(name(key))' lists grade '\(grade)' twice: it counts once")
                    continue
                }
                kept.append((grade, location))
            }
            grades = kept.map(\.grade)
            locations = kept.map(\.location)
        }
        if grades.isEmpty {
            log.error(at: node.location, "'\(name(key))' must list at least one grade like \(example), found an empty list")
        } else if site.isReadable {
            let listed = site.homework.grades.map(\.text).joined(separator: ", ")
            for (grade, location) in zip(grades, locations) where !site.homework.grades.contains(grade) {
                log.error(at: location, "grade '\(grade)' is not one of the grades in site.yaml (\(listed.isEmpty ? "none are listed" : listed))")
            }
        }
        if let teacher {
            let taught = teacher.grades.map(\.text).joined(separator: ", ")
            for (grade, location) in zip(grades, locations) where !teacher.grades.contains(grade) && site.homework.grades.contains(grade) {
                log.note(at: location, "grade '\(grade)' is not one of the grades of teacher '\(teacher.id)' in teachers.yaml (\(taught)): the work is published for grade '\(grade)', as a stand-in teacher's is")
            }
        }
        return grades
    }
}

/// An entry of `teachers.yaml`.
public struct Teacher: Sendable, Hashable {
    public var id: String
    public var name: String
    public var subject: String
    public var grades: [GradeID]
    public var blog: WebURL?
    public var email: String?
    /// Where `sitegen import` reads the teacher's posts.
    public var feed: TeacherFeed?
    public var extra: Extra

    public static let path = "Content/teachers.yaml"

    public init(id: String, name: String, subject: String, grades: [GradeID], blog: WebURL?, email: String?, feed: TeacherFeed? = nil, extra: Extra = .none) {
        self.id = id
        self.name = name
        self.subject = subject
        self.grades = grades
        self.blog = blog
        self.email = email
        self.feed = feed
        self.extra = extra
    }

    public init(fields: FieldReader, site: Site) throws(InvalidContent) {
        let id = fields.required("id", Slug.self)
        let name = fields.requiredText("name")
        let subject = fields.requiredText("subject")
        var grades: [GradeID]?
        if fields.node("grades") == nil {
            fields.log.error(at: fields.mappingLocation, "missing required key 'grades': expected a list of grades like [6, 7]")
        } else {
            grades = fields.grades("grades", of: site, example: "[7, 8]")
        }
        blog = fields.optional("blog", WebURL.self)
        email = fields.optional("email", EmailAddress.self)?.text
        feed = fields.optional("feed", TeacherFeed.self)
        extra = fields.extra()
        fields.reportUnknownKeys(what: "teachers.yaml")
        // A teacher with a wrong grade or blog is still a teacher: assignments may name
        // them, and the build fails on the logged error anyway.
        guard let id, let name, let subject, let grades else { throw InvalidContent() }
        self.id = id.text
        self.name = name
        self.subject = subject
        self.grades = grades.filter { site.homework.grades.contains($0) }
    }

    /// Reads every entry of `teachers.yaml`; ids must be unique.
    public static func all(from node: YAMLNode?, site: Site, log: DiagnosticLog) -> [Teacher] {
        guard let node else { return [] }
        guard let entries = node.sequence else {
            log.error(at: node.location, "teachers.yaml must be a list of teachers like '- {id: ms-lee, name: Ms Lee, subject: Math, grades: [8]}', found \(node.shortDescription)")
            return []
        }
        var teachers: [Teacher] = []
        var firstLines: [String: Int] = [:]
        for entry in entries {
            guard entry.mapping != nil else {
                log.error(at: entry.location, "a teacher must be a mapping with id, name, subject and grades, found \(entry.shortDescription)")
                continue
            }
            let fields = FieldReader(entry, keys: ContentKeys.teacher, log: log, emptyLocation: entry.location)
            guard let teacher = try? Teacher(fields: fields, site: site) else { continue }
            if let first = firstLines[teacher.id] {
                log.error(at: fields.node("id")?.location ?? entry.location, "duplicate teacher id '\(teacher.id)': it is already used at line \(first)")
                continue
            }
            firstLines[teacher.id] = entry.location.line
            teachers.append(teacher)
        }
        return teachers
    }
}
