import Foundation
import SitegenContent
import SitegenSupport
import SitegenYAML
import Testing

@Suite("Ratings")
struct RatingTests {
    private let site = Site(node: try! YAMLReader.read(Array("title: Food\n".utf8), path: "Content/site.yaml"), log: DiagnosticLog())

    /// The article of `frontMatter`, and what reading it logged.
    private func article(_ frontMatter: String) -> (Article?, [String]) {
        let path = "Content/articles/toast.md"
        let file = ContentFile(path: path, contentPath: "articles/toast.md", frontMatter: try! YAMLReader.read(Array(frontMatter.utf8), path: path),
                               body: Array("Text.\n".utf8), bodyFirstLine: 6)
        let log = DiagnosticLog()
        let article = try? Article(file: file, context: ModelContext(site: site, teachers: [:], images: ImageLookup(staticFiles: []) { _, _ in nil }), log: log)
        return (article, log.entries.map(\.description))
    }

    @Test func readsHalvesFromZeroToFive() {
        for (written, halves, text) in [("0", 0, "0"), ("0.5", 1, "0.5"), ("4", 8, "4"), ("4.5", 9, "4.5"), ("4.50", 9, "4.5"), ("5", 10, "5"), ("5.0", 10, "5")] {
            let (article, problems) = article("title: Toast\ndate: 2026-05-20\nrating: \(written)\n")
            #expect(problems == [], "\(written)")
            #expect(article?.rating?.halves == halves && article?.rating?.text == text, "\(written)")
        }
        #expect(article("title: Toast\ndate: 2026-05-20\n").0?.rating == nil)
    }

    @Test func refusesANumberOutsideZeroToFiveOrBetweenHalves() {
        for written in ["5.5", "-0.5", "4.2", "4.25", "10"] {
            let (article, problems) = article("title: Toast\ndate: 2026-05-20\nrating: \(written)\n")
            #expect(article == nil)
            #expect(problems == ["Content/articles/toast.md:3:9: error: 'rating' must be a number from 0 to 5 in halves, like 4.5, found '\(written)'"])
        }
    }

    @Test func refusesWhatIsNotANumber() {
        #expect(article("title: Toast\ndate: 2026-05-20\nrating: great\n").1
            == ["Content/articles/toast.md:3:9: error: 'rating' must be a number from 0 to 5 in halves, like 4.5, found 'great'"])
        #expect(article("title: Toast\ndate: 2026-05-20\nrating: \"4.5\"\n").1
            == ["Content/articles/toast.md:3:9: error: 'rating' must be a number, found '4.5' in quotes, which YAML reads as text: write it without them"])
    }

    @Test func readsBackFromItsBytesAsWritten() throws {
        for frontMatter in ["title: Toast\ndate: 2026-05-20\nrating: 3.5\n", "title: Toast\ndate: 2026-05-20\n"] {
            let written = try #require(article(frontMatter).0)
            var writer = BinaryWriter()
            writer.article(written)
            let read = try BinaryReader.reading(writer.bytes) { reader throws(BinaryReader.Corrupt) in
                try ArticleFields(from: &reader) { _, _, _ in nil }
            }
            #expect(read.rating == written.rating && read.title == written.title)
        }
        // A rating of more than ten halves is no rating: the bytes are damaged. It is
        // where the bytes of a rated article first differ from those of one without.
        func encoded(_ frontMatter: String) throws -> [UInt8] {
            var writer = BinaryWriter()
            writer.article(try #require(article(frontMatter).0))
            return writer.bytes
        }
        var bytes = try encoded("title: Toast\ndate: 2026-05-20\nrating: 5\n")
        let unrated = try encoded("title: Toast\ndate: 2026-05-20\n")
        let at = try #require(bytes.indices.first { bytes[$0] != unrated[$0] })
        #expect(bytes[at] == 1 && bytes[at + 1] == 10)
        bytes[at + 1] = 11
        #expect(throws: BinaryReader.Corrupt.self) {
            try BinaryReader.reading(bytes) { reader throws(BinaryReader.Corrupt) in try ArticleFields(from: &reader) { _, _, _ in nil } }
        }
    }
}
