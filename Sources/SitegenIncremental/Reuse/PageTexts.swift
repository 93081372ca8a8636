import Foundation
import SitegenContent
import SitegenFiles
import SitegenLocking
import SitegenPipeline
import SitegenPlatform
import SitegenSupport

/// The articles' HTML in the pages of the output a cache was written with, for the
/// models the store keeps without it. Read when a page or feed is rendered with it
/// (`LazyText`); a page that is not as written gives none, and the article is made
/// again from its source (`remake`). A source that no longer is what the cache says is
/// noted in `changedSources`: the build must fail rather than show other HTML.
struct PageTexts: Sendable {
    /// The output folder.
    let root: String
    let pages: PageTable
    /// The pieces of HTML of the article made from the source at this path (as
    /// `Article.sourcePath` has it), when the source is as the cache has it.
    let remake: (@Sendable (String) -> [StoredText]?)?
    let changedSources = ChangedSources()

    final class ChangedSources: Sendable {
        private let paths = Locked<[String]>([])
        func add(_ path: String) { paths.withLock { $0.append(path) } }
        var all: [String] { paths.withLock { $0.sorted() } }
    }

    init(root: String, pages: PageTable, remake: (@Sendable (String) -> [StoredText]?)? = nil) {
        self.root = root
        self.pages = pages
        self.remake = remake
    }

    /// The HTML of the article made from `source`, whose page is at `path`, as `count`
    /// pieces read when needed; nil when the cache has no such page holding it.
    func deferred(ofPage path: String, count: Int, source: String) -> LazyText? {
        guard let html = html(ofPage: path, count: count) else { return nil }
        let counts = html.pieces.map(\.count)
        return LazyText(counts: counts) { [self] in
            if let pieces = read(html, ofPage: path) { return pieces }
            if let remade = remake?(source), remade.map(\.utf8Count) == counts { return remade }
            changedSources.add(source)
            return counts.map { _ in StoredText("") }
        }
    }

    /// The `count` pieces of HTML of the page at `path` (relative to the output folder);
    /// nil when the page does not have them as the cache says.
    func pieces(ofPage path: String, count: Int) -> [StoredText]? {
        html(ofPage: path, count: count).flatMap { read($0, ofPage: path) }
    }

    /// Where the cache says the page at `path` holds `count` pieces of HTML.
    private func html(ofPage path: String, count: Int) -> PageHTML? {
        guard let html = pages[path]?.html, html.pieces.count == count else { return nil }
        return html
    }

    /// The pieces `html` places in the page at `path`, when its bytes there are as written.
    private func read(_ html: PageHTML, ofPage path: String) -> [StoredText]? {
        let descriptor = open(root + "/" + path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, html.span.upperBound <= Int(info.st_size) else { return nil }
        var bytes = [UInt8](repeating: 0, count: html.span.count)
        let read = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, off_t(html.span.lowerBound)) }
        guard read == html.span.count, Checksum.value(bytes[...]) == html.checksum else { return nil }
        let start = html.span.lowerBound
        return html.pieces.map { StoredText(utf8: bytes[($0.lowerBound - start)..<($0.upperBound - start)]) }
    }
}

extension BinaryWriter {
    mutating func pageHTML(_ value: PageHTML) {
        integer(value.span.lowerBound)
        integer(value.span.upperBound)
        word(value.checksum)
        array(value.pieces) { writer, piece in
            writer.integer(piece.lowerBound - value.span.lowerBound)
            writer.integer(piece.count)
        }
    }
}

extension BinaryReader {
    mutating func pageHTML() throws(Corrupt) -> PageHTML {
        let start = try integer()
        let end = try integer()
        guard 0 <= start, start <= end else { throw Corrupt() }
        let checksum = try word()
        let pieces = try array { reader throws(Corrupt) -> Range<Int> in
            let offset = try reader.integer()
            let count = try reader.integer()
            guard offset >= 0, count >= 0, offset <= end - start - count else { throw Corrupt() }
            return (start + offset)..<(start + offset + count)
        }
        return PageHTML(span: start..<end, checksum: checksum, pieces: pieces)
    }
}

extension PageTexts {
    /// The pages of the output of a build from `cache`, the articles made again from the
    /// sources of `tree` when a page is not as written.
    init(output root: String, cache: BuildCache, tree: SourceTree, context: ModelContext) {
        self.init(root: root, pages: cache.pages) { [content = cache.content] source in
            tree.markdownFile(at: source).flatMap { Validate.articleHTML(of: $0, hash: content[$0.contentPath]?.hash, tree: tree, context: context) }
        }
    }
}
