import SitegenSupport

/// The **index** stage: what is published, in which order, under which path. Every
/// output path is claimed once; a second claim is an error at the file that makes it.
struct SiteIndex: Sendable {
    var site: Site
    var moment: BuildMoment
    /// Published articles, newest first.
    var articles: [Article]
    var pages: [Page]
    var teachers: [Teacher]
    /// Published assignments of each grade, in the order of `site.homework.grades`.
    var grades: [(grade: GradeID, assignments: [Assignment])]

    /// Top-level folders and files sitegen itself writes: a page may not take them.
    static let reservedSlugs: Set<String> = ["articles", "homework", "meals", "tags", "map", "assets", "page", "feed.xml", "sitemap.xml", "404.html", "robots.txt"]

    init(content: SiteContent, site: Site, moment: BuildMoment, includeDrafts: Bool, staticFiles: [String], themeAssets: [String], log: DiagnosticLog) {
        self.site = site
        self.moment = moment
        teachers = content.teachers

        var claims: [String: String] = [:]
        func claim(_ path: String, by source: String, at location: SourceLocation) -> Bool {
            if let owner = claims[path] {
                log.error(at: location, "the output path '\(path)' is already written by \(owner)")
                return false
            }
            claims[path] = source
            return true
        }
        // sitegen's own pages first, then content, then files copied as they are: a
        // collision is reported at the file that can be renamed.
        _ = claim("index.html", by: "the home page", at: SourceLocation(path: Site.path, line: 1, column: 1))
        if !site.homework.grades.isEmpty {
            _ = claim("homework/index.html", by: "the homework page", at: site.gradesLocation)
        }
        for grade in site.homework.grades {
            _ = claim("homework/grade-\(grade.slug)/index.html", by: "the page of grade \(grade)", at: site.gradesLocation)
        }
        for path in themeAssets.sorted() { _ = claim(path, by: "the theme's \(path)", at: SourceLocation(path: "Themes/\(site.theme)/\(path)", line: 1, column: 1)) }

        var articles: [Article] = []
        for article in content.articles.sorted(by: { $0.sourcePath < $1.sourcePath }) {
            let path = "articles/\(article.slug.text)/index.html"
            guard claim(path, by: article.sourcePath, at: SourceLocation(path: article.sourcePath, line: 1, column: 1)) else { continue }
            if includeDrafts || !article.draft { articles.append(article) }
        }
        self.articles = articles.sorted { ($0.instant, $1.slug) > ($1.instant, $0.slug) }

        var pages: [Page] = []
        for page in content.pages.sorted(by: { $0.sourcePath < $1.sourcePath }) {
            let location = SourceLocation(path: page.sourcePath, line: 1, column: 1)
            if SiteIndex.reservedSlugs.contains(page.slug.text) {
                log.error(at: location, "the slug '\(page.slug.text)' is taken by sitegen's own pages; give the page another 'slug'")
                continue
            }
            guard claim("\(page.slug.text)/index.html", by: page.sourcePath, at: location) else { continue }
            if includeDrafts || !page.draft { pages.append(page) }
        }
        self.pages = pages.sorted { ($0.title, $0.slug) < ($1.title, $1.slug) }

        // A day's assignments appear at the site's release time, not before.
        let released = { (assignment: Assignment) -> Bool in
            assignment.assigned < moment.date
                || (assignment.assigned == moment.date && (moment.time ?? site.homework.releaseTime) >= site.homework.releaseTime)
        }
        let published = content.assignments.filter { (includeDrafts || !$0.draft) && released($0) }
        grades = site.homework.grades.map { grade in
            let assignments = published.filter { $0.grades.contains(grade) }.sorted {
                ($1.assigned, $0.subject, $0.title, $0.id) < ($0.assigned, $1.subject, $1.title, $1.id)
            }
            return (grade, assignments)
        }
        for path in staticFiles {
            _ = claim(path, by: "Content/\(path)", at: SourceLocation(path: "Content/\(path)", line: 1, column: 1))
        }
    }
}
