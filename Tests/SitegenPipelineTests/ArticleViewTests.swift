import Foundation
import SitegenContent
@testable import SitegenPipeline
import SitegenMustache
import SitegenSupport
import SitegenYAML
import Testing

@Suite("What list pages read of an article")
struct ArticleViewReadsTests {
    private static let site = Site(node: try! YAMLReader.read(Array("title: Food\nbase_url: https://example.org/\n".utf8), path: "Content/site.yaml"), log: DiagnosticLog())
    private static let context = ViewContext(site: site, formats: Formats(language: site.language))

    private func article(body: String) throws -> Article {
        let yaml = """
        title: Toast
        date: 2026-11-07T10:00
        summary: Thick toast.
        cover: {src: "https://example.org/toast.jpg", alt: Toast}
        meal: Breakfast
        price: 38
        author: {name: Ada, username: ada}
        restaurant: {name: Kam Wah, address: 47 Bute St, lat: 22.32, lon: 114.17}
        tags: [toast]
        sections:
          - image: {src: "https://example.org/butter.jpg", alt: Butter}
            text: Butter.
        """
        let file = ContentFile(path: "Content/articles/toast.md", contentPath: "articles/toast.md",
                               frontMatter: try YAMLReader.read(Array(yaml.utf8), path: "Content/articles/toast.md"), body: Array(body.utf8), bodyFirstLine: 14)
        let log = DiagnosticLog()
        let article = try Article(file: file, context: ModelContext(site: Self.site, teachers: [:], images: ImageLookup(staticFiles: []) { _, _ in nil }), log: log)
        #expect(!log.entries.contains { $0.severity == .error }, "\(log.entries)")
        return article
    }

    private func view(_ article: Article, reads: ArticleView.Reads? = nil) -> ArticleView {
        ArticleView(article: article, variant: .card(reads: reads), context: Self.context)
    }

    /// A wider view is boxed on the heap by every `.object` and copied through its value
    /// witnesses; the card's identity is the one its memo keys on.
    @Test func fitsInThreeWordsAndSaysWhoItIs() throws {
        #expect(MemoryLayout<ArticleView>.size <= 3 * MemoryLayout<Int>.size)
        let toast = try article(body: "Crisp.\n")
        #expect(view(toast).mustacheIdentity?.text == "article.card\u{0}" + toast.sourcePath)
        #expect(ArticleView(article: toast, variant: .page, context: Self.context).mustacheIdentity?.text == "article\u{0}" + toast.sourcePath)
        #expect(MustacheValue.same(ArticleView(article: toast, variant: .page, context: Self.context).mustacheMember("view"), .string("article")))
        #expect(MustacheValue.same(view(toast).mustacheMember("view"), .string("article.card")))
    }

    /// A restaurant's record is made once for all its articles (which no value shows): the
    /// same restaurant gets the same record, and one told apart from another only by its
    /// address, or by the sign of a zero coordinate, a record of its own.
    @Test func restaurantsAlikeGetTheSameRecordAndOthersTheirOwn() throws {
        let context = ViewContext(site: Self.site, formats: Formats(language: Self.site.language))
        func text(_ value: MustacheValue, _ name: String) -> String? {
            if case .string(let text)? = value.member(name) { text } else { nil }
        }
        let kamWah = Restaurant(name: "Kam Wah", address: "47 Bute St", latitude: 0, longitude: 114.17)
        let first = context.restaurant(kamWah, of: "Content/articles/a.md")
        #expect(MustacheValue.same(first, context.restaurant(kamWah, of: "Content/articles/a.md")))
        #expect(text(first, "lat") == "0.000000")
        #expect(text(first, "address") == "47 Bute St")
        var south = kamWah
        south.latitude = -0.0
        #expect(text(context.restaurant(south, of: "Content/articles/a.md"), "lat") == "-0.000000")
        #expect(text(context.restaurant(kamWah, of: "Content/articles/a.md"), "lat") == "0.000000")
        let moved = Restaurant(name: "Kam Wah", address: "2 Bute St", latitude: 0, longitude: 114.17)
        #expect(text(context.restaurant(moved, of: "Content/articles/a.md"), "address") == "2 Bute St")
        var unmapped = kamWah
        unmapped.latitude = nil
        #expect(context.restaurant(unmapped, of: "Content/articles/a.md").member("embedURL") == nil)
        #expect(MustacheValue.same(context.restaurant(unmapped, of: "Content/articles/a.md").member("hasCoordinates"), .bool(false)))
        // A branch's article links to the page the index gave it.
        context.useRestaurantSlugs(["Content/articles/b.md": "kam-wah-central"])
        #expect(text(context.restaurant(kamWah, of: "Content/articles/b.md"), "url") == "/restaurants/kam-wah-central/")
        #expect(text(context.restaurant(kamWah, of: "Content/articles/a.md"), "url") == "/restaurants/kam-wah/")
    }

    @Test func everyListedMemberIsAnsweredAndNoted() throws {
        let reads = ArticleView.Reads()
        let toast = view(try article(body: "Crisp.\n"), reads: reads)
        for name in ArticleView.table.names.map(\.name) {
            #expect(toast.mustacheMember(name) != nil, "\(name)")
        }
        #expect(reads.value == (UInt64(1) << UInt64(ArticleView.table.names.map(\.name).count)) - 1)
        // A name the view does not have is looked up elsewhere: it is not noted. One of each
        // length its members have, and a member's name in other letters.
        for name in ["map", "site", "group", "groups", "hasMany", "articles", "pagination", "restaurants", "Title", "subcontents"] {
            #expect(toast.mustacheMember(name) == nil, "\(name)")
        }
        #expect(reads.value & ArticleView.Reads.unlisted == 0)
    }

    @Test func notesEachMemberAtItsOwnPlace() throws {
        let toast = try article(body: "Crisp.\n")
        for (place, name) in ArticleView.table.names.map(\.name).enumerated() {
            let reads = ArticleView.Reads()
            _ = view(toast, reads: reads).mustacheMember(name)
            #expect(reads.value == UInt64(1) << UInt64(place), "\(name)")
        }
    }

    @Test func comparesOnlyWhatWasRead() throws {
        let first = view(try article(body: "Crisp.\n"))
        let edited = view(try article(body: "Crisp.\n\nAnd sweet.\n"))
        let reads = ArticleView.Reads()
        for name in ["title", "url", "cover", "price", "displayDate", "view"] { _ = view(try article(body: ""), reads: reads).mustacheMember(name) }
        #expect(first.answersAlike(edited, for: reads.value))
        _ = view(try article(body: ""), reads: reads).mustacheMember("body")
        #expect(!first.answersAlike(edited, for: reads.value))
        #expect(!first.answersAlike(first, for: ArticleView.Reads.unlisted))
        #expect(first.answersAlike(first, for: reads.value))
    }

    /// A full build makes the articles' views while it builds the index; the render stage
    /// must find those, not make its own, and nothing may be made once the memo is stopped.
    @Test func viewsMadeAheadAreTheOnesTheRenderStageFinds() throws {
        let toast = try article(body: "Crisp.\n")
        let stopped = ArticleViewMemo(context: Self.context)
        stopped.stop()
        #expect(stopped.makeAhead([toast]) == 0)
        let madeLater = stopped[toast]
        #expect(stopped[toast].values === madeLater.values)

        let memo = ArticleViewMemo(context: Self.context)
        #expect(memo.makeAhead([toast, toast]) == 1)
        #expect(memo.makeAhead([toast]) == 0)
        let ahead = memo[toast]
        guard case .array(let cards) = memo.cards([toast, toast]), cards.count == 2,
              case .boxed(let first) = cards[0], case .boxed(let second) = cards[1],
              let card = first.object as? ArticleView else {
            Issue.record("expected two cards, each the article's view")
            return
        }
        #expect(first === second)
        #expect(card.values === ahead.values)
        #expect(card.mustacheIdentity?.text == "article.card\u{0}" + toast.sourcePath)
    }
}

@Suite("The site's view")
struct SiteViewTests {
    @Test func answersEachMemberAndNoOtherName() throws {
        let yaml = "title: Food\ndescription: Toast.\nlanguage: en-GB\nbase_url: https://example.org/food/\ntimezone: Asia/Hong_Kong\nhomework:\n  grades: [6]\n  school: Harbour View\n"
        let site = Site(node: try YAMLReader.read(Array(yaml.utf8), path: "Content/site.yaml"), log: DiagnosticLog())
        let view = SiteView(site: site, pages: [.string("about")], assets: ["css": ["style": "/food/assets/style.css"]])
        let expected: [(String, MustacheValue)] = [
            ("title", "Food"), ("description", "Toast."), ("language", "en-GB"), ("root", "/food/"), ("school", "Harbour View"),
            ("homeworkTitle", "Homework"), ("hasHomework", true), ("pages", ["about"]), ("timezone", "Asia/Hong_Kong"),
            ("assets", ["css": ["style": "/food/assets/style.css"]]), ("locale", "en_GB"), ("feedURL", "/food/feed.xml"),
        ]
        for (name, value) in expected {
            #expect(MustacheValue.same(view.mustacheMember(name), value), "\(name)")
        }
        // Names it does not have go on down the stack: one of every length up to the longest,
        // and members' names in other letters.
        for length in 1...15 {
            #expect(view.mustacheMember(String(repeating: "x", count: length)) == nil, "\(length)")
        }
        for name in ["Title", "roots", "feedUrl", "hashomework", "homeworktitle"] {
            #expect(view.mustacheMember(name) == nil, "\(name)")
        }
    }
}
