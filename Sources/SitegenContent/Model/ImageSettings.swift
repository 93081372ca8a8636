import Foundation
import SitegenImages
import SitegenSupport

/// `images:` in site.yaml: the sizes and formats photos are published in.
public struct ImageSettings: Sendable, Hashable {
    /// The widths, in pixels and ascending, a photo is made in (never wider than it is).
    public var widths = [320, 640, 960, 1280, 1600]
    /// The formats offered before the fallback every browser shows (JPEG, or PNG for a PNG
    /// photo), best first.
    public var formats: [ImageEncoding] = [.webp]
    /// The encoders' quality, 1 to 100.
    public var quality = 75
    /// Whether the photo itself is published too, at its full size.
    public var keepOriginals = false
    /// Whether a kept original (and a photo no content shows) leaves out what its file says
    /// beyond its pixels (camera, place, time); the sizes made of a photo never carry it.
    public var stripMetadata = true
    /// The largest photo, in pixels, and the largest file, in bytes, sitegen opens.
    public var maxPixels = 100_000_000
    public var maxFileBytes = 50 << 20

    public init() {}

    static let keys = KeyTable([
        ContentKey("widths", "a list of whole numbers from 16 to 8192", default: "`[320, 640, 960, 1280, 1600]`", "The widths each photo is made in; a photo narrower than the largest is also made at its own width. Never wider than the photo.", example: "widths: [480, 960, 1600]"),
        ContentKey("formats", "a list of `avif` and `webp`", default: "`[webp]`", "The formats offered before the JPEG (or PNG) every browser shows, best first. AVIF files are smaller and take far longer to make; `[]` makes JPEG alone.", example: "formats: [avif, webp]"),
        ContentKey("quality", "a whole number from 1 to 100", default: "`75`", "How closely the made files keep to the photo, against their size.", example: "quality: 80"),
        ContentKey("keep_originals", "`true` or `false`", default: "`false`", "Also publish each photo at its full size (turned upright, and without metadata unless `strip_metadata` is false).", example: "keep_originals: true"),
        ContentKey("strip_metadata", "`true` or `false`", default: "`true`", "Leave out of a photo published at its own size (a kept original, or a photo no page shows) what its file says beyond its pixels: the camera, the time, and the place it was taken. With `false`, such a photo is published byte for byte; the sizes made of a photo never carry any of it.", example: "strip_metadata: false"),
        ContentKey("max_megapixels", "a whole number from 1 to 1000", default: "`100`", "The largest photo sitegen opens, in millions of pixels: a larger one is an error at the line that uses it.", example: "max_megapixels: 50"),
        ContentKey("max_megabytes", "a whole number from 1 to 1000", default: "`50`", "The largest photo file sitegen opens, in megabytes.", example: "max_megabytes: 20"),
    ])

    /// `images:`; a wrong value is an error at it, and its default is kept.
    init(_ fields: FieldReader) {
        guard let section = fields.mapping("images", expectation: "a mapping like {widths: [480, 960, 1600]}") else { return }
        if let widths = section.list("widths", Int.self, singleAllowed: true) {
            if let wrong = widths.first(where: { !(16...8192).contains($0) }) {
                section.log.error(at: section.node("widths")!.location, "'images.widths' must be whole numbers from 16 to 8192, found '\(wrong)'")
            } else if widths.isEmpty {
                section.log.error(at: section.node("widths")!.location, "'images.widths' must name at least one width, found []")
            } else {
                self.widths = Array(Set(widths)).sorted()
            }
        }
        if let names = section.list("formats", String.self, singleAllowed: true) {
            var formats: [ImageEncoding] = []
            for (index, name) in names.enumerated() {
                guard let format = ImageEncoding(rawValue: name.lowercased()), format.isOffered else {
                    let location = section.node("formats")?.sequence?[index].location ?? section.node("formats")!.location
                    section.log.error(at: location, "'images.formats' must list `avif` and `webp` (JPEG or PNG always comes after them), found '\(name)'")
                    continue
                }
                if !formats.contains(format) { formats.append(format) }
            }
            self.formats = formats
        }
        quality = ImageSettings.number(section, "quality", 1...100) ?? quality
        keepOriginals = section.optional("keep_originals", Bool.self) ?? keepOriginals
        stripMetadata = section.optional("strip_metadata", Bool.self) ?? stripMetadata
        maxPixels = ImageSettings.number(section, "max_megapixels", 1...1000).map { $0 * 1_000_000 } ?? maxPixels
        maxFileBytes = ImageSettings.number(section, "max_megabytes", 1...1000).map { $0 << 20 } ?? maxFileBytes
        section.reportUnknownKeys(what: "site.yaml")
    }

    private static func number(_ section: FieldReader, _ key: String, _ range: ClosedRange<Int>) -> Int? {
        guard let value = section.optional(key, Int.self) else { return nil }
        guard range.contains(value) else {
            section.log.error(at: section.node(key)!.location, "'images.\(key)' must be a whole number from \(range.lowerBound) to \(range.upperBound), found '\(value)'")
            return nil
        }
        return value
    }

    /// The error of a photo larger than sitegen may open, `file` as written where it is
    /// named; nil when it is within both limits. Checked before a byte of it is decoded: a
    /// small file may say it is 100,000 pixels square.
    public func limitError(_ photo: PhotoFile, bytes: Int?, file: String) -> String? {
        if photo.width.multipliedReportingOverflow(by: photo.height).partialValue > maxPixels || photo.width > 1 << 24 || photo.height > 1 << 24 {
            return "image '\(file)' must be at most \(maxPixels / 1_000_000) million pixels, found \(photo.width) × \(photo.height): make it smaller, or raise 'images.max_megapixels' in site.yaml (docs/photos.md)"
        }
        if let bytes, bytes > maxFileBytes {
            return "image '\(file)' must be at most \(maxFileBytes >> 20) MB, found \(String(format: "%.1f MB", Double(bytes) / 1_048_576)): make it smaller, or raise 'images.max_megabytes' in site.yaml (docs/photos.md)"
        }
        return nil
    }

    /// What a change of these settings changes in the files made: a photo's made files are
    /// kept in the cache under it.
    public var fingerprint: String {
        "w\(widths.map(String.init).joined(separator: ","));f\(formats.map(\.rawValue).joined(separator: ","));q\(quality);k\(keepOriginals);s\(stripMetadata)"
    }
}

extension ImageEncoding {
    /// Offered in `<source>` before the fallback; the others are fallbacks.
    public var isOffered: Bool { self == .avif || self == .webp }
}

/// A photo file sitegen makes published sizes of: its format and its pixel size once
/// turned upright.
public struct PhotoFile: Sendable, Hashable {
    public enum Format: String, Sendable, Hashable {
        case jpeg, png, webp, avif
    }

    public var format: Format
    public var width: Int
    public var height: Int

    public init(format: Format, width: Int, height: Int) {
        self.format = format
        self.width = width
        self.height = height
    }

    /// The format every browser shows that it is made in: PNG keeps a PNG's transparency
    /// and sharp edges; every other photo is made a JPEG.
    public var fallback: ImageEncoding { format == .png ? .png : .jpeg }

    /// The format it is kept in at its own size: its own.
    public var encoding: ImageEncoding {
        switch format {
        case .jpeg: .jpeg
        case .png: .png
        case .webp: .webp
        case .avif: .avif
        }
    }
}
