import Foundation
import SitegenMarkdown
import SitegenSupport
import SitegenYAML

/// Text rendered from Markdown: an article's HTML, an assignment's details. It stays the
/// UTF-8 bytes it was made as (cmark's output, the build cache's bytes) until something
/// needs a String, and templates take the bytes as they are: a rebuild after one edit
/// decodes all of a site's articles and assignments (their places in lists depend on them)
/// but renders a handful, and a full build would check every body's bytes once more for
/// each String. Both sources are valid UTF-8: cmark writes what it read, checked when the
/// file was read, and the cache's bytes are checksummed and were written from such text.
public struct StoredText: Sendable {
    private enum Storage: Sendable {
        case text(String)
        case utf8(ArraySlice<UInt8>)
        /// A piece of `LazyText`, made when first needed.
        case lazy(LazyText, Int)
    }

    private let storage: Storage

    public init(_ text: String) {
        storage = .text(text)
    }

    /// `bytes` must be valid UTF-8.
    public init(utf8 bytes: ArraySlice<UInt8>) {
        storage = .utf8(bytes)
    }

    /// The `piece`th piece of `html`.
    public init(_ html: LazyText, piece: Int) {
        storage = .lazy(html, piece)
    }

    public var text: String {
        switch storage {
        case .text(let text): text
        case .utf8(let bytes): String(decoding: bytes, as: UTF8.self)
        case .lazy(let html, let piece): html.pieces[piece].text
        }
    }

    /// The text as it is kept: a String, or UTF-8 bytes that need not be made into one.
    public enum Form {
        case text(String)
        case utf8(ArraySlice<UInt8>)
    }

    public var form: Form {
        switch storage {
        case .text(let text): .text(text)
        case .utf8(let bytes): .utf8(bytes)
        case .lazy(let html, let piece): html.pieces[piece].form
        }
    }

    public var isEmpty: Bool { utf8Count == 0 }

    /// Whether the text is made when first needed (`LazyText`).
    public var isLazy: Bool {
        if case .lazy = storage { return true }
        return false
    }

    /// How many bytes the text's UTF-8 has.
    public var utf8Count: Int {
        switch storage {
        case .text(let text): text.utf8.count
        case .utf8(let bytes): bytes.count
        case .lazy(let html, let piece): html.counts[piece]
        }
    }

    /// Calls `body` with the UTF-8 bytes, without making a String of them.
    public func withUTF8<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        switch storage {
        case .text(var text): text.withUTF8(body)
        case .utf8(let bytes): bytes.withUnsafeBufferPointer(body)
        case .lazy(let html, let piece): html.pieces[piece].withUTF8(body)
        }
    }
}

/// Pieces of text made only if something needs them, by the first thread that does: a
/// model can be read whole while the text it shows is kept elsewhere, and made again only
/// for the few models a build renders.
public final class LazyText: Sendable {
    /// The UTF-8 length of each piece, known before they are read.
    public let counts: [Int]
    private let load: @Sendable () -> [StoredText]
    private let loaded = Once<[StoredText]>()

    /// `load` gives as many pieces as `counts` has, of those lengths.
    public init(counts: [Int], load: @escaping @Sendable () -> [StoredText]) {
        self.counts = counts
        self.load = load
    }

    /// Read once, by the first thread that needs them.
    public var pieces: [StoredText] {
        loaded.value(load)
    }
}
