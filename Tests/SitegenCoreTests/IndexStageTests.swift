import Foundation
@testable import SitegenCore
import SitegenSupport
import SitegenYAML
import Testing

@Suite("Index stage")
struct IndexStageTests {
    private static let site = Site(node: try! YAMLReader.read(Array("title: Food\nbase_url: https://example.org/\n".utf8), path: "Content/site.yaml"), log: DiagnosticLog())

    private func article(_ slug: String, date: String, tags: [String], draft: Bool = false) throws -> Article {
        let yaml = """
        title: \(slug)
        date: \(date)
        tags: [\(tags.joined(separator: ", "))]
        draft: \(draft)
        """
        let path = "articles/\(slug).md"
        let file = ContentFile(path: "Content/" + path, contentPath: path, frontMatter: try YAMLReader.read(Array(yaml.utf8), path: "Content/" + path),
                               body: Array("Text.\n".utf8), bodyFirstLine: 6)
        let log = DiagnosticLog()
        let article = try Article(file: file, context: ModelContext(site: Self.site, teachers: [:], images: ImageLookup(staticFiles: []) { _, _ in nil }), log: log)
        #expect(!log.hasErrors, "\(log.entries)")
        return article
    }

    private func articles() throws -> [Article] {
        [
            try article("b-toast", date: "2026-11-02", tags: ["Toast", "toast", "Tea"]),
            try article("a-toast", date: "2026-11-02", tags: ["toast"]),
            try article("noodles", date: "2026-11-05", tags: ["Noodles"]),
            try article("congee", date: "2026-10-01", tags: ["Congee", "tea"], draft: true),
            try article("milk-tea", date: "2026-11-03T09:00", tags: ["Milk tea"]),
        ]
    }

    private func index(_ articles: [Article], drafts: Bool) -> SiteIndex {
        var content = SiteContent()
        content.articles = articles
        let moment = BuildMoment(date: CalendarDate(parsing: "2026-12-01")!, time: nil)
        return SiteIndex(content: content, site: Self.site, moment: moment, includeDrafts: drafts, staticFiles: [], themeAssets: [], log: DiagnosticLog())
    }

    @Test func groupsCountAnArticleOnceAndTheDraftsTheyLeaveOut() throws {
        let index = index(try articles(), drafts: false)
        // "toast" as a-toast writes it: the first of the newest articles, the same time
        // ordered by slug; b-toast's "Toast" and "toast" are one label.
        let tags = index.tags.map { ($0.label.name, $0.articles.map(\.slug.text), $0.draftCount) }
        #expect(tags.map(\.0) == ["Congee", "Milk tea", "Noodles", "Tea", "toast"])
        #expect(tags.map(\.1) == [[], ["milk-tea"], ["noodles"], ["b-toast"], ["a-toast", "b-toast"]])
        #expect(tags.map(\.2) == [1, 0, 0, 1, 0])
        let withDrafts = self.index(try articles(), drafts: true)
        #expect(withDrafts.tags.map(\.articles.count) == [1, 1, 1, 2, 2])
        #expect(withDrafts.tags.allSatisfy { $0.draftCount == 0 })
    }
}
