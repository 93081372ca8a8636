import Foundation
import Synchronization
@testable import SitegenCore
import Testing

@Suite("An article's HTML in its page")
struct PageHTMLTests {
    private func found(_ pieces: [String], in page: String) -> PageHTML? {
        Array(page.utf8).withUnsafeBufferPointer { bytes in
            PageHTML(finding: pieces.map { StoredText(utf8: Array($0.utf8)[...]) }, in: bytes)
        }
    }

    @Test func findsEachPieceAfterTheOneBefore() {
        let page = "<p>x</p><main><p>x</p><section><p>y</p></section></main>"
        #expect(found(["<p>x</p>", "<p>x</p>", "<p>y</p>"], in: page)?.pieces == [0..<8, 14..<22, 31..<39])
        #expect(found(["<p>x</p>", "<p>x</p>", "<p>y</p>"], in: page)?.span == 0..<39)
        #expect(found(["<p>y</p>", ""], in: page)?.pieces == [31..<39, 39..<39])
        #expect(found(["<p>y</p>", "<p>x</p>"], in: page) == nil)
        #expect(found(["<p>z</p>"], in: page) == nil)
        #expect(found([], in: page) == nil)
    }

    /// A piece longer than the part compared first, which a near miss shares.
    @Test func comparesALongPieceWhole() {
        let piece = String(repeating: "a", count: 40) + "b"
        #expect(found([piece], in: String(repeating: "a", count: 40) + "c" + piece)?.pieces == [41..<82])
        #expect(found([piece], in: String(repeating: "a", count: 40) + "c" + String(piece.dropLast())) == nil)
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

    @Test func givesThePiecesOnlyWhileThePageIsAsWritten() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sitegen-pagehtml-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("articles/a"), withIntermediateDirectories: true)
        let page = "<html><p>one</p><hr><p>two</p></html>"
        let file = folder.appendingPathComponent("articles/a/index.html")
        try page.write(to: file, atomically: false, encoding: .utf8)
        let html = try #require(found(["<p>one</p>", "<p>two</p>"], in: page))
        let entry = BuildCache.PageEntry(fingerprint: 1, templates: [], templatesHash: 0, html: html)
        let texts = PageTexts(root: folder.path, pages: PathTable(["articles/a/index.html": entry]))
        #expect(texts.pieces(ofPage: "articles/a/index.html", count: 2)?.map(\.text) == ["<p>one</p>", "<p>two</p>"])
        #expect(texts.pieces(ofPage: "articles/a/index.html", count: 3) == nil)
        #expect(texts.pieces(ofPage: "articles/b/index.html", count: 2) == nil)
        try page.replacingOccurrences(of: "two", with: "TWO").write(to: file, atomically: false, encoding: .utf8)
        #expect(texts.pieces(ofPage: "articles/a/index.html", count: 2) == nil)
    }

    /// The pieces are read when first asked for, from the page as it is then; a page not as
    /// written has the article made again, and a source that changed too fails the build.
    @Test func readsThePiecesWhenFirstNeededAndRemakesThemWhenThePageChanged() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sitegen-pagehtml-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("articles/a"), withIntermediateDirectories: true)
        let page = "<html><p>one</p><hr><p>two</p></html>"
        let file = folder.appendingPathComponent("articles/a/index.html")
        let html = try #require(found(["<p>one</p>", "<p>two</p>"], in: page))
        let entry = BuildCache.PageEntry(fingerprint: 1, templates: [], templatesHash: 0, html: html)
        let remade = Mutex<[StoredText]?>(nil)
        let texts = PageTexts(root: folder.path, pages: PathTable(["articles/a/index.html": entry])) { _ in remade.withLock { $0 } }
        #expect(texts.deferred(ofPage: "articles/a/index.html", count: 3, source: "Content/articles/a.md") == nil)
        #expect(texts.deferred(ofPage: "articles/b/index.html", count: 2, source: "Content/articles/b.md") == nil)

        // Made before the page is there: nothing is read yet.
        let first = try #require(texts.deferred(ofPage: "articles/a/index.html", count: 2, source: "Content/articles/a.md"))
        #expect(StoredText(first, piece: 1).utf8Count == 10)
        try page.write(to: file, atomically: false, encoding: .utf8)
        #expect([StoredText(first, piece: 0).text, StoredText(first, piece: 1).text] == ["<p>one</p>", "<p>two</p>"])

        try page.replacingOccurrences(of: "two", with: "TWO").write(to: file, atomically: false, encoding: .utf8)
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
        #expect(SiteBuilder.changedWhileBuilding("Content/articles/a.md").description
            == "Content/articles/a.md:1:1: error: the file changed while sitegen was building; build again")
    }
}
