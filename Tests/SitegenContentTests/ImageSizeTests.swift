import Foundation
@testable import SitegenContent
import SitegenSupport
import SitegenYAML
import Testing

@Suite("Image sizes")
struct ImageSizeTests {
    private static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8) + [0, 0, 0x04, 0x38, 0, 0, 0x03, 0x2A]

    @Test func readsPNGGIFWebPAVIFAndBMPHeaders() {
        #expect(ImageSize.read(Self.png) == .size(width: 1080, height: 810))
        let gif: [UInt8] = Array("GIF89a".utf8) + [0x38, 0x04, 0x2A, 0x03]
        #expect(ImageSize.read(gif) == .size(width: 1080, height: 810))
        var webp: [UInt8] = Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBPVP8X".utf8) + [10, 0, 0, 0, 0, 0, 0, 0]
        webp += [0x37, 0x04, 0x00, 0x29, 0x03, 0x00]
        #expect(ImageSize.read(webp) == .size(width: 1080, height: 810))
        // ftyp (major brand avif, compatible mif1 miaf), then an ispe box inside meta.
        var avif: [UInt8] = [0, 0, 0, 24] + Array("ftypavif".utf8) + [0, 0, 0, 0] + Array("mif1miaf".utf8)
        avif += [0, 0, 0, 20] + Array("ispe".utf8) + [0, 0, 0, 0, 0, 0, 0x04, 0x38, 0, 0, 0x03, 0x2A]
        #expect(ImageSize.read(avif) == .size(width: 1080, height: 810))
        var bmp: [UInt8] = Array("BM".utf8) + Array(repeating: 0, count: 12) + [40, 0, 0, 0, 0x38, 0x04, 0, 0]
        bmp += [0xD6, 0xFC, 0xFF, 0xFF]  // −810: rows stored top-down
        #expect(ImageSize.read(bmp) == .size(width: 1080, height: 810))
    }

    @Test func readsAnSVGsSizeOrViewBox() {
        func svg(_ text: String) -> ImageSize { ImageSize.read(Array(text.utf8)) }
        #expect(svg(#"<?xml version="1.0"?>\n<!-- a logo -->\n<svg xmlns="http://www.w3.org/2000/svg" width="120px" height='80'><path/></svg>"#) == .size(width: 120, height: 80))
        #expect(svg(#"<svg viewBox="0 0 24 12" xmlns="http://www.w3.org/2000/svg"/>"#) == .size(width: 24, height: 12))
        #expect(svg(#"<svg width="48" viewBox="0,0,24,12">"#) == .size(width: 48, height: 24))
        #expect(svg(#"<svg width="100%" height="100%">"#) == .unsized)
        #expect(svg(#"<svg width="120" height="80""#) == .cutShort(format: "an SVG"))
        #expect(ImageSize.read(Array(#"<?xml version="1.0"?><svg width="1" height="1">"#.utf8.prefix(30)), isWhole: false) == .needsMore)
    }

    @Test func saysWhatAFileIsWhenItsSizeCannotBeRead() {
        #expect(ImageSize.read([]).problem == "an empty file")
        #expect(ImageSize.read([0xFF, 0xD8, 0xFF, 0xE0, 0, 16]).problem == "a JPEG that ends before its size (a file cut short?)")
        #expect(ImageSize.read([0xFF, 0xD8, 0xFF, 0xE0, 0, 16], isWhole: false) == .needsMore)
        #expect(ImageSize.read(Array(Self.png.prefix(20))).problem == "a PNG that ends before its size (a file cut short?)")
        #expect(ImageSize.read(Array("<html>not an image</html>".utf8)).problem == "a file that begins '<html>not an'")
        #expect(ImageSize.read(Array("Größe süß".utf8)).problem == "a file that begins 'Größe sü'")
        #expect(ImageSize.read([0x50, 0x4B, 0x03, 0x04, 0x14, 0, 0, 0, 8, 0, 0, 0]).problem == "a file that begins with the bytes 50 4B 03 04 14 00 00 00")
        let heic: [UInt8] = [0, 0, 0, 24] + Array("ftypheic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8)
        #expect(ImageSize.read(heic).problem == "a HEIC image, which most browsers cannot show")
        #expect(ImageSize.read(Array("II*\0".utf8) + [8, 0, 0, 0]).problem == "a TIFF image, which most browsers cannot show")
        #expect(ImageSize.read(Self.png).problem == nil)
    }

    @Test func readsTheSampleSitesJPEGs() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Content/articles/lovely-breakfast/toast.jpg")
        let bytes = try Array(Data(contentsOf: url))
        #expect(ImageSize.read(bytes) == .size(width: 960, height: 720))
    }

    @Test func readsMoreOfAJPEGWhoseSizeComesLate() {
        // A JPEG whose start of frame follows 300 KB of APP2 blocks (colour profiles).
        var jpeg: [UInt8] = [0xFF, 0xD8]
        for _ in 0..<5 { jpeg += [0xFF, 0xE2, 0xFF, 0xFF] + Array(repeating: 0, count: 0xFFFD) }
        jpeg += [0xFF, 0xC0, 0, 17, 8, 0x03, 0x2A, 0x04, 0x38] + Array(repeating: 0, count: 12)
        let file = jpeg
        let lookup = ImageLookup(staticFiles: ["big.jpg"]) { _, count in Array(file.prefix(count)) }
        guard case .found(_, let size, _) = lookup.find("big.jpg", from: "articles/a/index.md") else { Issue.record("big"); return }
        #expect(size == .size(width: 1080, height: 810))
    }

    /// Past `wholeFileLimit` (64 MB) nothing more is read: a JPEG whose frame comes later is
    /// said to be one whose size is not there, not one cut short.
    @Test func saysAJPEGsSizeIsNotInItsFirst64MBWhenItComesLater() {
        var jpeg: [UInt8] = [0xFF, 0xD8]
        jpeg.reserveCapacity(ImageSize.wholeFileLimit + 70_000)
        while jpeg.count <= ImageSize.wholeFileLimit { jpeg += [0xFF, 0xE2, 0xFF, 0xFF] + Array(repeating: 0, count: 0xFFFD) }
        jpeg += [0xFF, 0xC0, 0, 17, 8, 0x03, 0x2A, 0x04, 0x38] + Array(repeating: 0, count: 12)
        let file = jpeg
        let lookup = ImageLookup(staticFiles: ["huge.jpg"]) { _, count in Array(file.prefix(count)) }
        guard case .found(_, let size, _) = lookup.find("huge.jpg", from: "articles/a/index.md") else { Issue.record("huge"); return }
        #expect(size?.problem == "a JPEG whose size is not in its first 64 MB")
    }

    /// An SVG saved compressed (`.svgz`) shows only from a host that says it is compressed.
    @Test func tellsAFileCompressedWithGzip() {
        let svgz: [UInt8] = [0x1F, 0x8B, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0x03, 0xB3, 0x29]
        #expect(ImageSize.read(svgz).problem == "a file compressed with gzip (an .svgz?), which browsers show only when the host says so; publish the .svg")
    }
}
