import SitegenImages
import SitegenMarkdown

/// One published file made from a photo.
public struct PhotoCandidate: Sendable, Hashable {
    /// Relative to the site, beside the photo: `articles/toast/cover-640w.webp`.
    public var path: String
    public var width: Int
    public var height: Int
    public var encoding: ImageEncoding

    public init(path: String, width: Int, height: Int, encoding: ImageEncoding) {
        self.path = path
        self.width = width
        self.height = height
        self.encoding = encoding
    }
}

/// The files sitegen publishes for one photo: each width of `images.widths` narrower than
/// it (and its own width when it is narrower than the widest), in each offered format and
/// in the fallback; and the photo itself when `keep_originals` is set. Worked out from the
/// photo's size alone, so that a page's markup is known before any pixel is made.
public struct PhotoCandidates: Sendable, Hashable {
    public var candidates: [PhotoCandidate]
    /// The photo itself, published at its own path, when the site keeps originals.
    public var original: PhotoCandidate?
    /// The formats offered before the fallback, best first (`images.formats`).
    public var offered: [ImageEncoding]
    public var fallback: ImageEncoding

    /// The widths made, narrowest first.
    public var widths: [Int] { of(fallback).map(\.width) }

    /// How wide prose's images are shown, as `sizes` says it: the column less the insets
    /// of the section and of its text.
    public static let proseSizes = "(min-width: 44rem) calc(42rem - 32px), calc(100vw - 64px)"

    public init(path: String, photo: PhotoFile, settings: ImageSettings) {
        let widest = settings.widths.last ?? photo.width
        var widths = settings.widths.filter { $0 < photo.width }
        if photo.width <= widest { widths.append(photo.width) }
        offered = settings.formats
        fallback = photo.fallback
        let stem = PhotoCandidates.stem(of: path)
        var candidates: [PhotoCandidate] = []
        for encoding in offered + [fallback] {
            for width in widths {
                let height = max(1, Int((Double(photo.height) * Double(width) / Double(photo.width)).rounded()))
                candidates.append(PhotoCandidate(path: "\(stem)-\(width)w.\(encoding.fileExtension)", width: width, height: height, encoding: encoding))
            }
        }
        self.candidates = candidates
        if settings.keepOriginals {
            original = PhotoCandidate(path: path, width: photo.width, height: photo.height, encoding: photo.encoding)
        }
    }

    /// The path without its extension.
    private static func stem(of path: String) -> Substring {
        let name = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
        guard let dot = path[name...].lastIndex(of: "."), dot > name else { return path[...] }
        return path[..<dot]
    }

    /// The candidates of one format, narrowest first.
    public func of(_ encoding: ImageEncoding) -> [PhotoCandidate] {
        candidates.filter { $0.encoding == encoding }
    }

    /// The fallback `<img src>` shows where `srcset` is not understood: the widest one no
    /// wider than 960 pixels (a column on a laptop), else the narrowest.
    public var fallbackSource: PhotoCandidate {
        let fallbacks = of(fallback)
        return fallbacks.last { $0.width <= 960 } ?? fallbacks[0]
    }

    /// A `srcset` of the candidates of `encoding`.
    public func sourceSet(_ encoding: ImageEncoding, url: (String) -> String) -> String {
        of(encoding).map { "\(url($0.path)) \($0.width)w" }.joined(separator: ", ")
    }

    /// The `<picture>` of an image within Markdown's text.
    public func markup(basePath: String, sizes: String) -> MarkdownPicture {
        let url = { (path: String) in basePath + path.urlPathEncoded }
        return MarkdownPicture(sources: offered.map { ($0.mediaType, sourceSet($0, url: url)) },
                               src: url(fallbackSource.path), srcset: sourceSet(fallback, url: url), sizes: sizes)
    }
}
