import Foundation
import SitegenContent
@testable import SitegenIncremental
@testable import SitegenPipeline
import Synchronization
import SitegenSupport
import Testing

@Suite("An article's HTML in its page")
struct PageHTMLTests {
    private static func found(_ pieces: [String], in page: String) -> PageHTML? {
        Array(page.utf8).withUnsafeBufferPointer { bytes in
            PageHTML(finding: pieces.map { StoredText(utf8: Array($0.utf8)[...]) }, in: bytes)
        }
    }

    @Test func findsEachPieceAfterTheOneBefore() {
        let page = "<p>x</p><main><p>x</p><section><p>y</p></section></main>"
        #expect(PageHTMLTests.found(["<p>x</p>", "<p>x</p>", "<p>y</p>"], in: page)?.pieces == [0..<8, 14..<22, 31..<39])
        #expect(PageHTMLTests.found(["<p>x</p>", "<p>x</p>", "<p>y</p>"], in: page)?.span == 0..<39)
        #expect(PageHTMLTests.found(["<p>y</p>", ""], in: page)?.pieces == [31..<39, 39..<39])
        #expect(PageHTMLTests.found(["<p>y</p>", "<p>x</p>"], in: page) == nil)
        #expect(PageHTMLTests.found(["<p>z</p>"], in: page) == nil)
        #expect(PageHTMLTests.found([], in: page) == nil)
    }

    /// A piece longer than the part compared first, which a near miss shares.
    @Test func comparesALongPieceWhole() {
        let piece = String(repeating: "a", count: 40) + "b"
        #expect(PageHTMLTests.found([piece], in: String(repeating: "a", count: 40) + "c" + piece)?.pieces == [41..<82])
        #expect(PageHTMLTests.found([piece], in: String(repeating: "a", count: 40) + "c" + String(piece.dropLast())) == nil)
    }

    @Test func readsBackAsWrittenAndRejectsPiecesOutsideItsSpan() throws {
        let html = PageHTML(span: 10..<50, checksum: 7, pieces: [10..<20, 30..<50])
        var writer = BinaryWriter()
        writer.pageHTML(html)
        #expect(try BinaryReader.reading(writer.bytes[...]) { reader throws(BinaryReader.Corrupt) in try reader.pageHTML() } == html)
        var bad = BinaryWriter()
        bad.pageHTML(PageHTML(span: 10..<50, checksum: 7, pieces: [30..<60]))
        #expect(throws: BinaryReader.Corrupt.self) { try BinaryReader.reading(bad.bytes[...]) { reader throws(BinaryReader.Corrupt) in try reader.pageHTML() } }
    }

    /// An output folder for the page `articles/a/index.html`, not written yet, and the
    /// cache's entry for it; removed with the fixture.
    private final class OutputFolder {
        static let page = "<html><p>one</p><hr><p>two</p></html>"
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("sitegen-pagehtml-\(UUID().uuidString)")
        let pages: PageTable

        init(finding pieces: [String]) throws {
            try FileManager.default.createDirectory(at: root.appendingPathComponent("articles/a"), withIntermediateDirectories: true)
            let html = try #require(PageHTMLTests.found(pieces, in: OutputFolder.page))
            pages = PageTable(["articles/a/index.html": BuildCache.PageEntry(fingerprint: 1, templates: [], templatesHash: 0, html: html)])
        }

        func writePage(_ text: String = OutputFolder.page) throws {
            try text.write(to: root.appendingPathComponent("articles/a/index.html"), atomically: false, encoding: .utf8)
        }

        deinit {
            try? FileManager.default.removeItem(at: root)
        }
    }

    @Test func givesThePiecesOnlyWhileThePageIsAsWritten() throws {
        let output = try OutputFolder(finding: ["<p>one</p>", "<p>two</p>"])
        try output.writePage()
        let texts = PageTexts(root: output.root.path, pages: output.pages)
        #expect(texts.pieces(ofPage: "articles/a/index.html", count: 2)?.map(\.text) == ["<p>one</p>", "<p>two</p>"])
        #expect(texts.pieces(ofPage: "articles/a/index.html", count: 3) == nil)
        #expect(texts.pieces(ofPage: "articles/b/index.html", count: 2) == nil)
        try output.writePage(OutputFolder.page.replacingOccurrences(of: "two", with: "TWO"))
        #expect(texts.pieces(ofPage: "articles/a/index.html", count: 2) == nil)
    }

    /// The pieces are read when first asked for, from the page as it is then; a page not as
    /// written has the article made again, and a source that changed too fails the build.
    @Test func readsThePiecesWhenFirstNeededAndRemakesThemWhenThePageChanged() throws {
        let output = try OutputFolder(finding: ["<p>one</p>", "<p>two</p>"])
        let remade = Mutex<[StoredText]?>(nil)
        let texts = PageTexts(root: output.root.path, pages: output.pages) { _ in remade.withLock { $0 } }
        #expect(texts.deferred(ofPage: "articles/a/index.html", count: 3, source: "Content/articles/a.md") == nil)
        #expect(texts.deferred(ofPage: "articles/b/index.html", count: 2, source: "Content/articles/b.md") == nil)

        // Made before the page is there: nothing is read yet.
        let first = try #require(texts.deferred(ofPage: "articles/a/index.html", count: 2, source: "Content/articles/a.md"))
        #expect(StoredText(first, piece: 1).utf8Count == 10)
        try output.writePage()
        #expect([StoredText(first, piece: 0).text, StoredText(first, piece: 1).text] == ["<p>one</p>", "<p>two</p>"])

        try output.writePage(OutputFolder.page.replacingOccurrences(of: "two", with: "TWO"))
        #expect(StoredText(first, piece: 1).text == "<p>two</p>")
        remade.withLock { $0 = [StoredText("<p>one</p>"), StoredText("<p>two</p>")] }
        let second = try #require(texts.deferred(ofPage: "articles/a/index.html", count: 2, source: "Content/articles/a.md"))
        #expect(StoredText(second, piece: 1).text == "<p>two</p>")
        #expect(texts.changedSources.all.isEmpty)

        remade.withLock { $0 = nil }
        let third = try #require(texts.deferred(ofPage: "articles/a/index.html", count: 2, source: "Content/articles/a.md"))
        #expect(StoredText(third, piece: 0).isEmpty == false)
        #expect(StoredText(third, piece: 0).text == "")
        #expect(texts.changedSources.all == ["Content/articles/a.md"])
        #expect(BuildCache.changedWhileBuilding("Content/articles/a.md").description
            == "Content/articles/a.md:1:1: error: the file changed while sitegen was building; build again")
    }
}
