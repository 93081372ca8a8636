import Foundation
import SitegenMarkdown
import SitegenMustache
import SitegenSupport
import SitegenYAML

/// Text rendered from Markdown: an article's HTML, an assignment's details. It stays the
/// UTF-8 bytes it was made as (cmark's output, the build cache's bytes) until something
/// needs a String, and templates take the bytes as they are: a rebuild after one edit
/// decodes all of a site's articles and assignments (their places in lists depend on them)
/// but renders a handful, and a full build would check every body's bytes once more for
/// each String. Both sources are valid UTF-8: cmark writes what it read, checked when the
/// file was read, and the cache's bytes are checksummed and were written from such text.
struct StoredText: Sendable {
    private enum Storage: Sendable {
        case text(String)
        case utf8(ArraySlice<UInt8>)
        /// A piece of `DeferredHTML`, read when first needed.
        case deferred(DeferredHTML, Int)
    }

    private let storage: Storage

    init(_ text: String) {
        storage = .text(text)
    }

    /// `bytes` must be valid UTF-8.
    init(utf8 bytes: ArraySlice<UInt8>) {
        storage = .utf8(bytes)
    }

    /// The `piece`th piece of `html`.
    init(_ html: DeferredHTML, piece: Int) {
        storage = .deferred(html, piece)
    }

    var text: String {
        switch storage {
        case .text(let text): text
        case .utf8(let bytes): String(decoding: bytes, as: UTF8.self)
        case .deferred(let html, let piece): html.pieces[piece].text
        }
    }

    /// What a template prints, without making a String of bytes.
    var mustacheValue: MustacheValue {
        switch storage {
        case .text(let text): .string(text)
        case .utf8(let bytes): .utf8(bytes)
        case .deferred(let html, let piece): html.pieces[piece].mustacheValue
        }
    }

    var isEmpty: Bool { utf8Count == 0 }

    /// Whether the text was read from elsewhere when first needed (`DeferredHTML`).
    var isDeferred: Bool {
        if case .deferred = storage { return true }
        return false
    }

    /// How many bytes the text's UTF-8 has.
    var utf8Count: Int {
        switch storage {
        case .text(let text): text.utf8.count
        case .utf8(let bytes): bytes.count
        case .deferred(let html, let piece): html.counts[piece]
        }
    }

    /// Calls `body` with the UTF-8 bytes, without making a String of them.
    func withUTF8<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        switch storage {
        case .text(var text): text.withUTF8(body)
        case .utf8(let bytes): bytes.withUnsafeBufferPointer(body)
        case .deferred(let html, let piece): html.pieces[piece].withUTF8(body)
        }
    }
}

/// HTML that a build reads only if it needs it: the pieces of an article's HTML that the
/// model store left out, in the page the last build made of the article (`PageTexts`).
/// A rebuild decodes every cached model (the lists need them all) but renders few
/// articles again, so the pages of the others are never read.
final class DeferredHTML: Sendable {
    /// The UTF-8 length of each piece, known before they are read.
    let counts: [Int]
    private let load: @Sendable () -> [StoredText]
    private let loaded = Once<[StoredText]>()

    /// `load` gives as many pieces as `counts` has, of those lengths.
    init(counts: [Int], load: @escaping @Sendable () -> [StoredText]) {
        self.counts = counts
        self.load = load
    }

    /// Read once, by the first thread that needs them.
    var pieces: [StoredText] {
        loaded.value(load)
    }
}
