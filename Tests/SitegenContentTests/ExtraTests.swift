import Foundation
import SitegenContent
import SitegenSupport
import SitegenYAML
import Testing

@Suite("Fields of the author's own (extra)")
struct ExtraTests {
    private func node(_ yaml: String, path: String = "Content/site.yaml") -> YAMLNode? {
        try! YAMLReader.read(Array(yaml.utf8), path: path)
    }

    private func site(_ yaml: String) -> (Site, [String]) {
        let log = DiagnosticLog()
        return (Site(node: node(yaml), log: log), log.entries.map(\.description))
    }

    private func article(_ frontMatter: String) -> (Article?, [String]) {
        let path = "Content/articles/toast.md"
        let file = ContentFile(path: path, contentPath: "articles/toast.md", frontMatter: node(frontMatter, path: path),
                               body: Array("Text.\n".utf8), bodyFirstLine: 6)
        let log = DiagnosticLog()
        let article = try? Article(file: file, context: ModelContext(site: site("title: Food\n").0, teachers: [:], images: ImageLookup(staticFiles: []) { _, _ in nil }), log: log)
        return (article, log.entries.map(\.description))
    }

    @Test func keepsEveryKindOfYAMLValueAsWritten() throws {
        let (article, problems) = article("""
            title: Toast
            date: 2026-05-20
            extra:
              opening_hours: 7am to 3pm
              seats: 40
              spicy: false
              price_band: 4.50
              opened: 2016-05-20
              quoted: "12"
              closed: ~
              dishes: [toast, eggs]
              chef: {name: Ah Keung, since: 1998}

            """)
        #expect(problems == [])
        let extra = try #require(article?.extra)
        #expect(extra.fields.map(\.key) == ["opening_hours", "seats", "spicy", "price_band", "opened", "quoted", "closed", "dishes", "chef"])
        #expect(extra["opening_hours"] == .text("7am to 3pm"))
        #expect(extra["seats"] == .integer(40))
        #expect(extra["spicy"] == .bool(false))
        #expect(extra["price_band"] == .text("4.50"))
        #expect(extra["opened"] == .text("2016-05-20"))
        #expect(extra["quoted"] == .text("12"))
        #expect(extra["closed"] == .null)
        #expect(extra["dishes"] == .list([.text("toast"), .text("eggs")]))
        #expect(extra["chef"] == .mapping(Extra(fields: [("name", .text("Ah Keung")), ("since", .integer(1998))])))
    }

    @Test func isNeverWarnedAboutAnywhere() {
        #expect(site("title: Food\nextra: {instagram: food, links: [a, b]}\n").1 == [])
        let log = DiagnosticLog()
        let site = site("title: Food\nhomework: {grades: [7]}\n").0
        let teachers = Teacher.all(from: node("- {id: ms-lee, name: Ms Lee, subject: Math, grades: [7], extra: {room: 204}}\n", path: Teacher.path), site: site, log: log)
        #expect(log.entries.isEmpty)
        #expect(teachers.first?.extra["room"] == .integer(204))
    }

    @Test func mustBeAMapping() {
        #expect(article("title: Toast\ndate: 2026-05-20\nextra: [a, b]\n").1 == [
            "Content/articles/toast.md:3:8: error: 'extra' must be a mapping of fields of your own like {opening_hours: 7am to 3pm}, found a list",
        ])
        #expect(article("title: Toast\ndate: 2026-05-20\nextra:\n").1 == [])
    }

    @Test func anUnknownKeyPointsToExtraWhenNoKeyIsClose() {
        #expect(article("title: Toast\ndate: 2026-05-20\nopening_hours: 7am\n").1 == [
            "Content/articles/toast.md:3:1: warning: unknown key 'opening_hours' in article front matter; a field of your own goes under 'extra:'",
        ])
        #expect(article("title: Toast\ndate: 2026-05-20\nextras: {a: 1}\n").1 == [
            "Content/articles/toast.md:3:1: warning: unknown key 'extras' in article front matter; did you mean 'extra'?",
        ])
        // A nested mapping has no `extra` of its own: no pointer there.
        #expect(article("title: Toast\ndate: 2026-05-20\ncover: {src: https://example.org/a.jpg, alt: A, opening_hours: 7am}\n").1 == [
            "Content/articles/toast.md:3:49: warning: unknown key 'cover.opening_hours' in article front matter",
        ])
    }

    @Test func comesBackFromItsBytes() throws {
        let (article, _) = article("title: Toast\ndate: 2026-05-20\nextra: {a: 1, b: [x, {c: true}], d: ~, e: text}\n")
        let written = try #require(article)
        var writer = BinaryWriter()
        writer.article(written)
        let read = try BinaryReader.reading(writer.bytes) { reader throws(BinaryReader.Corrupt) in
            try ArticleFields(from: &reader) { _, _, _ in nil }
        }
        #expect(read.extra == written.extra)
        #expect(read.extra["b"] == .list([.text("x"), .mapping(Extra(fields: [("c", .bool(true))]))]))
    }
}
