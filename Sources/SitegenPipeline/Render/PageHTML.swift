import SitegenContent
import SitegenPlatform
import SitegenSupport

/// Where an article's page holds the article's HTML: the HTML is most of an article's
/// model, and the page has it byte for byte already. The model store leaves it out for the
/// articles whose page has it, and a later build reads it back from the page
/// (`PageTexts`), checked by its checksum.
public struct PageHTML: Sendable, Equatable {
    /// From the start of the first piece to the end of the last, in the page's bytes.
    public var span: Range<Int>
    /// Of the span's bytes.
    public var checksum: UInt64
    /// The main text, then each sub section's, in the page's bytes.
    public var pieces: [Range<Int>]

    /// Where `pieces` are in `page`, each after the one before; nil when one is not there
    /// as it is (a theme that escapes it, or leaves it out).
    public init?(finding pieces: [StoredText], in page: UnsafeBufferPointer<UInt8>) {
        guard !pieces.isEmpty, page.baseAddress != nil else { return nil }
        var places: [Range<Int>] = []
        places.reserveCapacity(pieces.count)
        var from = 0
        for piece in pieces {
            let found: Int? = piece.withUTF8 { PageHTML.find($0, in: page, from: from) }
            guard let found else { return nil }
            places.append(found..<(found + piece.utf8Count))
            from = found + piece.utf8Count
        }
        span = places.first!.lowerBound..<places.last!.upperBound
        checksum = Checksum.value(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: page[span])))
        self.pieces = places
    }

    /// Where `needle` is in `page`, at `from` or after. glibc's `memmem` looks for a long
    /// needle byte by byte (two-way); for its first 32 bytes it compares many at a time,
    /// and a hit is then compared whole.
    public static func find(_ needle: UnsafeBufferPointer<UInt8>, in page: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
        guard let start = needle.baseAddress, needle.count > 0 else { return from }
        guard let base = page.baseAddress else { return nil }
        let prefix = min(needle.count, 32)
        var at = from
        while page.count - at >= needle.count {
            guard let hit = KernelFiles.find(start, count: prefix, in: base + at, count: page.count - at) else { return nil }
            let offset = UnsafeRawPointer(hit) - UnsafeRawPointer(base)
            guard page.count - offset >= needle.count else { return nil }
            if memcmp(base + offset + prefix, start + prefix, needle.count - prefix) == 0 { return offset }
            at = offset + 1
        }
        return nil
    }

    public init(span: Range<Int>, checksum: UInt64, pieces: [Range<Int>]) {
        self.span = span
        self.checksum = checksum
        self.pieces = pieces
    }
}
