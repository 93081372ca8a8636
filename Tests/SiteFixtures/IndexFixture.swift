import Foundation
import SitegenContent
import SitegenPipeline
import SitegenYAML

/// Articles and the index of a small food site, for the tests of the stages and of what a
/// rebuild reuses of them.
public enum IndexFixture {
    public static let site = Site(node: try! YAMLReader.read(Array("title: Food\nbase_url: https://example.org/\n".utf8), path: "Content/site.yaml"), log: DiagnosticLog())

    public static func article(_ slug: String, date: String, tags: [String], draft: Bool = false, title: String? = nil, restaurant: String? = nil) throws -> Article {
        let yaml = """
        title: \(title ?? slug)
        date: \(date)
        tags: [\(tags.joined(separator: ", "))]
        draft: \(draft)
        """ + (restaurant.map { "\nrestaurant: \($0)" } ?? "")
        let path = "articles/\(slug).md"
        let file = ContentFile(path: "Content/" + path, contentPath: path, frontMatter: try YAMLReader.read(Array(yaml.utf8), path: "Content/" + path),
                               body: Array("Text.\n".utf8), bodyFirstLine: 6)
        let log = DiagnosticLog()
        let article = try Article(file: file, context: ModelContext(site: site, teachers: [:], images: ImageLookup(staticFiles: []) { _, _ in nil }), log: log)
        precondition(!log.hasErrors, "\(log.entries)")
        return article
    }

    /// Five articles: two toasts of one day, noodles, a draft congee, and milk tea.
    public static func articles() throws -> [Article] {
        [
            try article("b-toast", date: "2026-11-02", tags: ["Toast", "toast", "Tea"]),
            try article("a-toast", date: "2026-11-02", tags: ["toast"]),
            try article("noodles", date: "2026-11-05", tags: ["Noodles"]),
            try article("congee", date: "2026-10-01", tags: ["Congee", "tea"], draft: true),
            try article("milk-tea", date: "2026-11-03T09:00", tags: ["Milk tea"]),
        ]
    }

    public static func index(_ articles: [Article], drafts: Bool) -> SiteIndex {
        var content = SiteContent()
        content.articles = articles
        let moment = BuildMoment(date: CalendarDate(parsing: "2026-12-01")!, time: nil)
        return SiteIndex(content: content, site: site, moment: moment, includeDrafts: drafts, staticFiles: [], themeAssets: [], log: DiagnosticLog())
    }
}
