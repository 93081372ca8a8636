import Foundation
import SitegenCLI
import SitegenContent
import SitegenTestSupport
import Testing

/// Photos as a build publishes them: upright, without metadata, in every size, and broken
/// or hostile files refused at the line that names them.
@Suite("Photos")
struct PhotoTests {
    static let fixtures = Repository.root.appendingPathComponent("Tests/Fixtures/photos")

    /// A site whose one article shows `photo` (a file of Tests/Fixtures/photos) as its cover
    /// and again in its story.
    private func site(photo: String, siteYAML: String = "") throws -> TemporaryFolder {
        let folder = TemporaryFolder()
        try folder.write("title: Bites\nbase_url: https://example.org/\n" + siteYAML, to: "site/Content/site.yaml")
        try folder.write("---\ntitle: Toast\ndate: 2026-10-01\ncover: {src: \(photo), alt: A photo}\n---\nText.\n\n![Again](\(photo))\n\nMore.\n",
                         to: "site/Content/articles/toast/index.md")
        try FileManager.default.copyItem(at: Self.fixtures.appendingPathComponent(photo), to: folder.url.appendingPathComponent("site/Content/articles/toast/" + photo))
        return folder
    }

    private func build(_ folder: TemporaryFolder, output: String = "out", cached: Bool = false, timings: Bool = false) -> (status: Int32, errors: String) {
        let console = CapturedConsole()
        let cache = cached ? ["--cache-dir", folder.url.appendingPathComponent("cache").path] : ["--no-cache"]
        let status = CommandLineTool.run(arguments: ["build", "--quiet", "--source", folder.url.appendingPathComponent("site").path,
                                                     "--output", folder.url.appendingPathComponent(output).path, "--today", "2026-10-02"] + cache + (timings ? ["--timings"] : []),
                                         console: console.console)
        return (status, console.error)
    }

    private func published(_ folder: TemporaryFolder, _ path: String, output: String = "out") -> [UInt8]? {
        FileManager.default.contents(atPath: folder.url.appendingPathComponent(output).appendingPathComponent(path).path).map(Array.init)
    }

    /// What no published photo may hold: EXIF (its APP1 segment or a WebP's chunk), XMP,
    /// and the tags of the place it was taken.
    static func metadataMarkers(in bytes: [UInt8]) -> [String] {
        ["Exif", "EXIF", "XMP ", "xmpmeta", "http://ns.adobe.com", "GPS", "Sitegen Test Phone"].filter { marker in
            let needle = Array(marker.utf8)
            return bytes.indices.dropLast(needle.count - 1).contains { bytes[$0..<$0 + needle.count].elementsEqual(needle) }
        }
    }

    @Test func aPhoneSPhotoIsPublishedUprightInEverySizeWithoutItsPlace() throws {
        let folder = try site(photo: "phone.jpg")
        let (status, errors) = build(folder)
        #expect(status == 0, "\(errors)")
        // Stored 64 wide and 48 tall, turned by its EXIF orientation: 48 wide and 64 tall.
        for name in ["phone-48w.jpg", "phone-48w.webp"] {
            let bytes = try #require(published(folder, "articles/toast/" + name), "\(name)")
            #expect(ImageSize.read(bytes) == .size(width: 48, height: 64), "\(name)")
            #expect(Self.metadataMarkers(in: bytes) == [], "\(name)")
        }
        #expect(published(folder, "articles/toast/phone.jpg") == nil)
        let page = String(decoding: try #require(published(folder, "articles/toast/index.html")), as: UTF8.self)
        #expect(page.contains("<picture><source type=\"image/webp\" srcset=\"/articles/toast/phone-48w.webp 48w\" sizes=\"(min-width: 44rem) 42rem, calc(100vw - 32px)\"><img class=\"cover\" src=\"/articles/toast/phone-48w.jpg\" srcset=\"/articles/toast/phone-48w.jpg 48w\" sizes=\"(min-width: 44rem) 42rem, calc(100vw - 32px)\" alt=\"A photo\" width=\"48\" height=\"64\" fetchpriority=\"high\" style=\"background-color: #"))
    }

    @Test func keptOriginalsAreStrippedUnlessTheSiteSaysOtherwise() throws {
        let folder = try site(photo: "phone.jpg", siteYAML: "images: {keep_originals: true}\n")
        #expect(build(folder).status == 0)
        let original = try #require(published(folder, "articles/toast/phone.jpg"))
        #expect(ImageSize.read(original) == .size(width: 48, height: 64))
        #expect(Self.metadataMarkers(in: original) == [])

        try folder.write("title: Bites\nbase_url: https://example.org/\nimages: {keep_originals: true, strip_metadata: false}\n", to: "site/Content/site.yaml")
        #expect(build(folder, output: "kept").status == 0)
        #expect(published(folder, "articles/toast/phone.jpg", output: "kept") == Array(try Data(contentsOf: Self.fixtures.appendingPathComponent("phone.jpg"))))
    }

    @Test func aPhotoNoContentShowsIsPublishedAtItsPathWithoutItsPlace() throws {
        let folder = try site(photo: "badge.png")
        try FileManager.default.copyItem(at: Self.fixtures.appendingPathComponent("phone.jpg"), to: folder.url.appendingPathComponent("site/Content/loose.jpg"))
        #expect(build(folder).status == 0)
        let loose = try #require(published(folder, "loose.jpg"))
        #expect(ImageSize.read(loose) == .size(width: 48, height: 64))
        #expect(Self.metadataMarkers(in: loose) == [])
        // A PNG with transparency falls back to a PNG, not a JPEG on white.
        #expect(published(folder, "articles/toast/badge-40w.png") != nil)
        #expect(published(folder, "articles/toast/badge-40w.jpg") == nil)
    }

    @Test func aPhotoCutShortIsAnErrorWhereItIsNamed() throws {
        let folder = try site(photo: "truncated.jpg")
        let (status, errors) = build(folder)
        #expect(status == 1)
        #expect(errors.hasPrefix("Content/articles/toast/index.md:4:14: error: image 'articles/toast/truncated.jpg' must be a photo sitegen can read, found one libvips could not: "), "\(errors)")
        #expect(errors.contains("Save it again from a photo editor, or replace it (docs/photos.md)\n"))
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("out").path))
    }

    @Test func aFileNamedAsAPhotoThatIsNoneIsAnError() throws {
        let folder = try site(photo: "not-an-image.jpg")
        let (status, errors) = build(folder)
        #expect(status == 1)
        #expect(errors.hasPrefix("""
            Content/articles/toast/index.md:4:14: error: image 'not-an-image.jpg' must be a PNG, JPEG, GIF, WebP, AVIF, SVG or BMP file, found a file that begins '<!doctype ht': replace it with the photo itself (docs/photos.md)
            Content/articles/toast/index.md:8:1: error: image 'not-an-image.jpg' must be a PNG, JPEG, GIF, WebP, AVIF, SVG or BMP file, found a file that begins '<!doctype ht': replace it with the photo itself (docs/photos.md)
            """), "\(errors)")
    }

    @Test func aDecompressionBombIsRefusedBeforeItIsOpened() throws {
        let folder = try site(photo: "bomb.png")
        let (status, errors) = build(folder)
        #expect(status == 1)
        #expect(errors.hasPrefix("""
            Content/articles/toast/index.md:4:14: error: image 'bomb.png' must be at most 100 million pixels, found 100000 × 100000: make it smaller, or raise 'images.max_megapixels' in site.yaml (docs/photos.md)
            """), "\(errors)")
    }

    @Test func aBombNoContentShowsIsRefusedToo() throws {
        let folder = try site(photo: "phone.jpg")
        try FileManager.default.copyItem(at: Self.fixtures.appendingPathComponent("bomb.png"), to: folder.url.appendingPathComponent("site/Content/bomb.png"))
        let (status, errors) = build(folder)
        #expect(status == 1)
        #expect(errors.hasPrefix("Content/bomb.png:1:1: error: image 'bomb.png' must be at most 100 million pixels, found 100000 × 100000: make it smaller, or raise 'images.max_megapixels' in site.yaml (docs/photos.md)\n"), "\(errors)")
    }

    @Test func theLimitsAreTheSiteS() throws {
        let folder = try site(photo: "phone.jpg", siteYAML: "images: {max_megabytes: 1, max_megapixels: 1}\n")
        #expect(build(folder).status == 0)
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("site/Content/articles/toast/phone.jpg"))
        var big = Array(try Data(contentsOf: Self.fixtures.appendingPathComponent("phone.jpg")))
        // Two megabytes of comment before the picture: still a photo, now a large file.
        big.insert(contentsOf: [0xFF, 0xFE, 0xFF, 0xFF] + [UInt8](repeating: 0x20, count: 65_533), at: 2)
        for _ in 0..<32 { big.insert(contentsOf: [0xFF, 0xFE, 0xFF, 0xFF] + [UInt8](repeating: 0x20, count: 65_533), at: 2) }
        try Data(big).write(to: folder.url.appendingPathComponent("site/Content/articles/toast/phone.jpg"))
        let (status, errors) = build(folder)
        #expect(status == 1)
        #expect(errors.hasPrefix("Content/articles/toast/index.md:4:14: error: image 'phone.jpg' must be at most 1 MB, found 2.1 MB: make it smaller, or raise 'images.max_megabytes' in site.yaml (docs/photos.md)"), "\(errors)")
    }

    @Test func aRebuildWithThePhotosUnchangedMakesNoneAgain() throws {
        let folder = try site(photo: "phone.jpg")
        try FileManager.default.copyItem(at: Self.fixtures.appendingPathComponent("badge.png"), to: folder.url.appendingPathComponent("site/Content/articles/toast/badge.png"))
        try folder.write("---\ntitle: Toast\ndate: 2026-10-01\ncover: {src: phone.jpg, alt: A photo}\n---\nText.\n\n![A badge](badge.png)\n", to: "site/Content/articles/toast/index.md")
        #expect(build(folder, cached: true, timings: true).errors.contains("made 2 photos"))
        // A change of the theme builds every page, and makes no photo.
        try folder.write("title: Bites again\nbase_url: https://example.org/\n", to: "site/Content/site.yaml")
        #expect(build(folder, cached: true, timings: true).errors.contains("made 0 photos"))
        // One photo changed: that one alone is made again.
        let photo = folder.url.appendingPathComponent("site/Content/articles/toast/phone.jpg")
        var bytes = Array(try Data(contentsOf: photo))
        let model = Array("Model 12".utf8)
        let at = try #require(bytes.indices.first { bytes[$0...].starts(with: model) })
        bytes[at + 7] = UInt8(ascii: "3")
        try Data(bytes).write(to: photo)
        #expect(build(folder, cached: true, timings: true).errors.contains("made 1 photo\n"))
        #expect(build(folder, output: "fresh").status == 0)
        #expect(FolderSnapshot(folder.url.appendingPathComponent("out")).files == FolderSnapshot(folder.url.appendingPathComponent("fresh")).files)
        // Another output of the same site (as `serve` writes) takes the photos made for the first.
        #expect(build(folder, output: "elsewhere", cached: true, timings: true).errors.contains("made 0 photos"))
    }

    /// Two articles with the same photo (one copied from the other, as docs/getting-started.md
    /// does): the photo is made once and published beside each, with and without a store.
    @Test func theSamePhotoInTwoPlacesIsMadeOnce() throws {
        let folder = try site(photo: "phone.jpg")
        try folder.write("---\ntitle: Toast again\ndate: 2026-10-01\ncover: {src: phone.jpg, alt: The same photo}\n---\nText.\n",
                         to: "site/Content/articles/again/index.md")
        try FileManager.default.copyItem(at: Self.fixtures.appendingPathComponent("phone.jpg"), to: folder.url.appendingPathComponent("site/Content/articles/again/phone.jpg"))
        for cached in [true, false] {
            let output = cached ? "cached" : "uncached"
            let (status, errors) = build(folder, output: output, cached: cached, timings: true)
            #expect(status == 0, "\(errors)")
            #expect(errors.contains("made 1 photo\n"), "\(errors)")
            for name in ["phone-48w.jpg", "phone-48w.webp"] {
                let first = try #require(published(folder, "articles/toast/" + name, output: output), "\(name)")
                #expect(published(folder, "articles/again/" + name, output: output) == first, "\(name)")
            }
        }
    }

    @Test func aPageShowsItsPhotoWhereItIsWritten() throws {
        let folder = try site(photo: "phone.jpg")
        try folder.write("---\ntitle: About\n---\nHello.\n\n![Us](/articles/toast/phone.jpg)\n\nAnd a small one ![inline](/articles/toast/phone.jpg) in a line.\n", to: "site/Content/pages/about.md")
        #expect(build(folder).status == 0)
        let page = String(decoding: try #require(published(folder, "about/index.html")), as: UTF8.self)
        let picture = "<picture><source type=\"image/webp\" srcset=\"/articles/toast/phone-48w.webp 48w\" sizes=\"(min-width: 44rem) calc(42rem - 32px), calc(100vw - 64px)\"><img src=\"/articles/toast/phone-48w.jpg\" srcset=\"/articles/toast/phone-48w.jpg 48w\" sizes=\"(min-width: 44rem) calc(42rem - 32px), calc(100vw - 64px)\" width=\"48\" height=\"64\" alt=\"%@\" loading=\"lazy\" decoding=\"async\" /></picture>"
        #expect(page.contains("<p>" + picture.replacingOccurrences(of: "%@", with: "Us") + "</p>"))
        #expect(page.contains("<p>And a small one " + picture.replacingOccurrences(of: "%@", with: "inline") + " in a line.</p>"))
    }

    @Test func checkKeepsThePhotosItMakesForTheBuilds() throws {
        let folder = try site(photo: "phone.jpg")
        let console = CapturedConsole()
        let status = CommandLineTool.run(arguments: ["check", "--quiet", "--source", folder.url.appendingPathComponent("site").path,
                                                     "--cache-dir", folder.url.appendingPathComponent("cache").path, "--today", "2026-10-02"],
                                         console: console.console)
        #expect(status == 0, "\(console.error)")
        #expect(build(folder, cached: true, timings: true).errors.contains("made 0 photos"))
    }

    @Test func twoPhotosMayNotMakeTheSameFiles() throws {
        let folder = try site(photo: "phone.jpg")
        let toast = folder.url.appendingPathComponent("site/Content/articles/toast")
        try FileManager.default.copyItem(at: toast.appendingPathComponent("phone.jpg"), to: toast.appendingPathComponent("phone.jpeg"))
        try folder.write("---\ntitle: Toast\ndate: 2026-10-01\ncover: {src: phone.jpg, alt: A photo}\n---\nText.\n\n![Again](phone.jpeg)\n", to: "site/Content/articles/toast/index.md")
        var (status, errors) = build(folder)
        #expect(status == 1)
        #expect(errors.hasPrefix("Content/articles/toast/index.md:8:1: error: image 'articles/toast/phone.jpeg' must make files of its own, found that 'articles/toast/phone.jpg' makes articles/toast/phone-48w.webp too: rename one of them (docs/photos.md)\n"), "\(errors)")

        try FileManager.default.moveItem(at: toast.appendingPathComponent("phone.jpeg"), to: toast.appendingPathComponent("phone-48w.jpg"))
        try folder.write("---\ntitle: Toast\ndate: 2026-10-01\ncover: {src: phone.jpg, alt: A photo}\n---\nText.\n", to: "site/Content/articles/toast/index.md")
        (status, errors) = build(folder)
        #expect(status == 1)
        #expect(errors.hasPrefix("Content/articles/toast/index.md:4:14: error: image 'articles/toast/phone.jpg' must make files of its own, found Content/articles/toast/phone-48w.jpg where its 48-pixel jpeg goes: rename one of them (docs/photos.md)\n"), "\(errors)")
    }
}
