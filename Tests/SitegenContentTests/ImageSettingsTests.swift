import Foundation
import SitegenContent
import SitegenSupport
import SitegenYAML
import Testing

/// `images:` in site.yaml, and the files a photo is published as.
@Suite("Photo settings and candidates")
struct ImageSettingsTests {
    private func site(_ images: String) -> (ImageSettings, [String]) {
        let log = DiagnosticLog()
        let node = try! YAMLReader.read(Array("title: Food\nimages: \(images)\n".utf8), path: Site.path)
        return (Site(node: node, log: log).images, log.entries.map(\.description))
    }

    @Test func hasDefaultsForAPhoneAndALaptop() {
        let (settings, problems) = site("{}")
        #expect(problems == [])
        #expect(settings.widths == [320, 640, 960, 1280, 1600])
        #expect(settings.formats == [.webp])
        #expect(settings.quality == 75 && !settings.keepOriginals && settings.stripMetadata)
        #expect(settings.maxPixels == 100_000_000 && settings.maxFileBytes == 50 << 20)
    }

    @Test func readsEverySetting() {
        let (settings, problems) = site("{widths: [960, 480, 480], formats: [AVIF, webp], quality: 80, keep_originals: true, strip_metadata: false, max_megapixels: 50, max_megabytes: 20}")
        #expect(problems == [])
        #expect(settings.widths == [480, 960])
        #expect(settings.formats == [.avif, .webp])
        #expect(settings.quality == 80 && settings.keepOriginals && !settings.stripMetadata)
        #expect(settings.maxPixels == 50_000_000 && settings.maxFileBytes == 20 << 20)
    }

    @Test(arguments: [
        ("{widths: [0, 960]}", "Content/site.yaml:2:18: error: 'images.widths' must be whole numbers from 16 to 8192, found '0'"),
        ("{widths: []}", "Content/site.yaml:2:18: error: 'images.widths' must name at least one width, found []"),
        ("{formats: [webp, gif]}", "Content/site.yaml:2:26: error: 'images.formats' must list `avif` and `webp` (JPEG or PNG always comes after them), found 'gif'"),
        ("{quality: 101}", "Content/site.yaml:2:19: error: 'images.quality' must be a whole number from 1 to 100, found '101'"),
        ("{max_megapixels: 0}", "Content/site.yaml:2:26: error: 'images.max_megapixels' must be a whole number from 1 to 1000, found '0'"),
        ("{max_megabytes: 5000}", "Content/site.yaml:2:25: error: 'images.max_megabytes' must be a whole number from 1 to 1000, found '5000'"),
        ("[webp]", "Content/site.yaml:2:9: error: 'images' must be a mapping like {widths: [480, 960, 1600]}, found a list"),
    ])
    func aWrongSettingIsAnErrorAtIt(yaml: String, message: String) {
        #expect(site(yaml).1 == [message])
    }

    @Test func neverMakesAPhotoWiderThanItIs() {
        let settings = ImageSettings()
        let phone = PhotoCandidates(path: "articles/a/toast.jpg", photo: PhotoFile(format: .jpeg, width: 4032, height: 3024), settings: settings)
        #expect(phone.widths == [320, 640, 960, 1280, 1600])
        #expect(phone.of(.webp).map(\.path) == ["articles/a/toast-320w.webp", "articles/a/toast-640w.webp", "articles/a/toast-960w.webp", "articles/a/toast-1280w.webp", "articles/a/toast-1600w.webp"])
        #expect(phone.of(.jpeg).map(\.height) == [240, 480, 720, 960, 1200])
        #expect(phone.fallbackSource.path == "articles/a/toast-960w.jpg")
        let small = PhotoCandidates(path: "a/b.c.jpeg", photo: PhotoFile(format: .jpeg, width: 700, height: 500), settings: settings)
        #expect(small.widths == [320, 640, 700])
        #expect(small.of(.jpeg).map(\.path) == ["a/b.c-320w.jpg", "a/b.c-640w.jpg", "a/b.c-700w.jpg"])
        let tiny = PhotoCandidates(path: "icon.png", photo: PhotoFile(format: .png, width: 48, height: 48), settings: settings)
        #expect(tiny.candidates.map(\.path) == ["icon-48w.webp", "icon-48w.png"])
        #expect(tiny.fallback == .png && tiny.original == nil)
    }

    @Test func readsWhichWayUpAJPEGIsAndWhichFilesArePhotos() throws {
        let phone = Array(try Data(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/photos/phone.jpg")))
        #expect(ImageSize.jpegOrientation(phone) == 6)
        #expect(ImageSize.jpegOrientation([0xFF, 0xD8, 0xFF, 0xDA, 0, 2]) == 1)
        #expect(PhotoFile.format(of: phone) == .jpeg)
        // A WebP whose extended header says it is animated, and an APNG, are published as they are.
        var animated = Array("RIFF\0\0\0\0WEBPVP8X".utf8) + [10, 0, 0, 0, 0x02] + [UInt8](repeating: 0, count: 9)
        #expect(PhotoFile.format(of: animated) == nil)
        animated[20] = 0
        #expect(PhotoFile.format(of: animated) == .webp)
        let apng: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 8] + Array("acTL".utf8) + [UInt8](repeating: 0, count: 12)
        #expect(PhotoFile.format(of: apng) == nil)
        #expect(PhotoFile.hasPhotoExtension("a/B.JPG") && !PhotoFile.hasPhotoExtension("a.jpg/b") && !PhotoFile.hasPhotoExtension("a.gif"))
    }
}
