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
        let article = try Article(file: file, context: ModelContext(site: Self.site, teachers: [:], images: ImageLookup(staticFiles: []) { _ in nil }), log: log)
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

    /// A first build makes these folders before the index exists: they must be the plan's.
    @Test(arguments: [false, true])
    func articlePagesArePlannedWhereTheyWereWorkedOutBeforeTheIndex(drafts: Bool) throws {
        let all = try articles()
        let index = index(all, drafts: drafts)
        let planned = zip(index.plan, index.planPaths).filter { $0.0.isArticle }.map(\.1)
        #expect(SiteIndex.articlePagePaths(of: all, includeDrafts: drafts) == planned)
        #expect(planned.first == "articles/noodles/index.html")
        #expect(planned.contains("articles/congee/index.html") == drafts)
        // Same time: by slug, as the index orders them.
        #expect(planned.firstIndex(of: "articles/a-toast/index.html")! < planned.firstIndex(of: "articles/b-toast/index.html")!)
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

    @Test func foldersAskedForLaterAreMadeAfterTheFirstAndWaitedForByEitherList() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("sitegen-folders-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let first = (0..<300).map { "articles/a\($0)/index.html" }
        let later = ["index.html", "tags/toast/index.html", "tags/toast/page/2/index.html", "articles/a7/extra/x.txt"]
        let early = StagingFolders(in: root, opened: OpenFolder(root), for: first)
        let folders = StagingFolders(in: root, opened: OpenFolder(root), for: later, after: early)
        var isFolder: ObjCBool = false
        folders.waitForFolder(of: "articles/a299/index.html")
        #expect(FileManager.default.fileExists(atPath: root + "/articles/a299", isDirectory: &isFolder) && isFolder.boolValue)
        folders.waitForFolder(of: "tags/toast/page/2/index.html")
        #expect(FileManager.default.fileExists(atPath: root + "/tags/toast/page/2", isDirectory: &isFolder) && isFolder.boolValue)
        folders.finish()
        for folder in ["articles/a0", "articles/a7/extra", "tags/toast/page"] {
            #expect(FileManager.default.fileExists(atPath: root + "/" + folder, isDirectory: &isFolder) && isFolder.boolValue, "\(folder)")
        }
        // A path in neither list is its writer's to make.
        folders.waitForFolder(of: "somewhere/else.html")
        #expect(!FileManager.default.fileExists(atPath: root + "/somewhere"))
    }
}
