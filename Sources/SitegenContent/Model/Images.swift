import SitegenSupport

/// An image as a page shows it: where it is published, what it shows, how big it is.
public struct ResolvedImage: Sendable, Hashable {
    /// A path inside the site (`articles/lovely-breakfast/toast.jpg`) or an absolute URL.
    public var location: Location
    public var alt: String
    public var width: Int?
    public var height: Int?
    /// The file, when it is a photo sitegen makes published sizes of.
    public var photo: PhotoFile?
    /// Where the photo is named, for the errors of making its sizes.
    public var usedAt: SourceLocation?

    public enum Location: Sendable, Hashable {
        case site(String)
        case remote(String)
    }

    public init(location: Location, alt: String, width: Int? = nil, height: Int? = nil, photo: PhotoFile? = nil, usedAt: SourceLocation? = nil) {
        self.location = location
        self.alt = alt
        self.width = width
        self.height = height
        self.photo = photo
        self.usedAt = photo == nil ? nil : usedAt
    }
}

/// Finds the files that content refers to. Relative paths resolve against the folder of
/// the file that names them, then against Content/; none may lead outside Content/.
public struct ImageLookup: Sendable {
    /// Files of Content/ that are published as they are, by path relative to Content/.
    public var staticFiles: Set<String>
    /// Reads up to `count` bytes from the start of a static file, for its pixel size.
    public var readPrefix: @Sendable (_ path: String, _ count: Int) -> [UInt8]?
    /// The size in bytes of a static file.
    public var fileSize: @Sendable (_ path: String) -> Int?

    public enum Result {
        /// `size` is nil when the file could not be read; `photo` is set for a photo whose
        /// published sizes sitegen makes.
        case found(path: String, size: ImageSize?, photo: PhotoFile?)
        case missing(candidates: [String])
        case outside
    }

    /// `source` as written in `contentFile` (both relative to Content/).
    public func find(_ source: String, from contentFile: String) -> Result {
        let (path, _) = source.splitOffQueryAndFragment()
        let decoded = path.removingPercentEncodingIfValid()
        var candidates: [String] = []
        if decoded.hasPrefix("/") {
            candidates = [String(decoded.dropFirst())]
        } else {
            let folder = contentFile.split(separator: "/").dropLast().joined(separator: "/")
            candidates = folder.isEmpty ? [decoded] : [folder + "/" + decoded, decoded]
        }
        let normalized = candidates.compactMap(ImageLookup.normalize)
        guard !normalized.isEmpty else { return .outside }
        for candidate in normalized where staticFiles.contains(candidate) {
            let (size, photo) = facts(of: candidate)
            return .found(path: candidate, size: size, photo: photo)
        }
        return .missing(candidates: normalized)
    }

    /// Most files say their size in their first bytes; a JPEG may put it after large
    /// EXIF or colour-profile blocks, and only then is more of the file read.
    private func facts(of path: String) -> (ImageSize?, PhotoFile?) {
        guard var head = readPrefix(path, ImageSize.headerLength) else { return (nil, nil) }
        var size = ImageSize.read(head, isWhole: head.count < ImageSize.headerLength)
        if size == .needsMore {
            guard let bytes = readPrefix(path, ImageSize.wholeFileLimit) else { return (nil, nil) }
            size = ImageSize.read(bytes, isWhole: bytes.count < ImageSize.wholeFileLimit)
            if size == .needsMore { size = .sizeBeyondLimit(format: ImageSize.formatName(of: bytes)) }
            head = bytes
        }
        guard case .size(let width, let height) = size else { return (size, nil) }
        return (size, PhotoFile(header: head, width: width, height: height))
    }

    /// Resolves `.` and `..`; nil when the path climbs out of its root.
    public static func normalize(_ path: String) -> String? {
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..":
                guard !parts.isEmpty else { return nil }
                parts.removeLast()
            default: parts.append(part)
            }
        }
        return parts.joined(separator: "/")
    }

    public init(staticFiles: Set<String>, readPrefix: @escaping @Sendable (_ path: String, _ count: Int) -> [UInt8]?, fileSize: @escaping @Sendable (_ path: String) -> Int? = { _ in nil }) {
        self.staticFiles = staticFiles
        self.readPrefix = readPrefix
        self.fileSize = fileSize
    }
}

extension String {
    public func splitOffQueryAndFragment() -> (path: String, rest: String) {
        guard let index = firstIndex(where: { $0 == "?" || $0 == "#" }) else { return (self, "") }
        return (String(self[..<index]), String(self[index...]))
    }

    public func removingPercentEncodingIfValid() -> String {
        guard contains("%"), let bytes = PercentEncoding.decode(self) else { return self }
        return String(validating: bytes, as: UTF8.self) ?? self
    }
}

/// The pixel size of an image file, read from its first bytes, or what kept it from being read.
public enum ImageSize: Equatable, Sendable {
    case size(width: Int, height: Int)
    /// An SVG with neither a size nor a viewBox: it takes the size of its place.
    case unsized
    /// The bytes given end before the size, and they are not the whole file.
    case needsMore
    case empty
    /// A file of a known format that ends before its size; `format` is named for a
    /// message ("a JPEG").
    case cutShort(format: String)
    /// An image format that browsers do not show (most of them), named for a message.
    case notForBrowsers(format: String)
    /// A file compressed with gzip (an SVG saved as `.svgz`), which a browser shows only
    /// when the host sends it saying so (`Content-Encoding: gzip`), as few static hosts do.
    case compressed
    /// A file of a known format whose size is not in its first `wholeFileLimit` bytes
    /// (a JPEG behind tens of megabytes of metadata).
    case sizeBeyondLimit(format: String)
    /// The first bytes of a file of no known image format.
    case unknown(prefix: [UInt8])

    /// How many bytes of a file are enough for `read`, nearly always.
    public static let headerLength = 256 * 1024
    /// How much of a file is read when its first bytes were not enough.
    public static let wholeFileLimit = 64 << 20

    public static let expectation = "a PNG, JPEG, GIF, WebP, AVIF, SVG or BMP file"

    /// What the file was found to be when it is not an image whose size a browser can
    /// know (nil when it is one, or an SVG that needs no size), for a message.
    public var problem: String? {
        switch self {
        case .size, .unsized, .needsMore: nil
        case .empty: "an empty file"
        case .cutShort(let format): "\(format) that ends before its size (a file cut short?)"
        case .notForBrowsers(let format): "\(format) image, which most browsers cannot show"
        case .compressed: "a file compressed with gzip (an .svgz?), which browsers show only when the host says so; publish the .svg"
        case .sizeBeyondLimit(let format): "\(format) whose size is not in its first \(ImageSize.wholeFileLimit >> 20) MB"
        case .unknown(let prefix): "a file that begins \(ImageSize.describe(prefix))"
        }
    }

    /// `isWhole` tells whether `bytes` are the whole file, so that running out of them
    /// means the file is cut short rather than that more must be read.
    public static func read(_ bytes: [UInt8], isWhole: Bool = true) -> ImageSize {
        func measured(_ size: (width: Int, height: Int)?, _ format: String) -> ImageSize {
            if let size { return .size(width: size.width, height: size.height) }
            return isWhole ? .cutShort(format: format) : .needsMore
        }
        if bytes.isEmpty { return .empty }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            return measured(bytes.count >= 24 ? (bigEndian(bytes, 16, 4), bigEndian(bytes, 20, 4)) : nil, "a PNG")
        }
        if bytes.starts(with: Array("GIF87a".utf8)) || bytes.starts(with: Array("GIF89a".utf8)) {
            return measured(bytes.count >= 10 ? (littleEndian(bytes, 6, 2), littleEndian(bytes, 8, 2)) : nil, "a GIF")
        }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) {
            return measured(jpeg(bytes), "a JPEG")
        }
        if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)), bytes[8..<12].elementsEqual("WEBP".utf8) {
            return measured(bytes.count >= 30 ? webp(bytes) : nil, "a WebP")
        }
        if let brands = fileTypeBrands(bytes) {
            if brands.contains("avif") || brands.contains("avis") { return measured(avif(bytes), "an AVIF") }
            if !brands.isDisjoint(with: ["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1"]) { return .notForBrowsers(format: "a HEIC") }
        }
        if bytes.starts(with: Array("II*\0".utf8)) || bytes.starts(with: Array("MM\0*".utf8)) {
            return .notForBrowsers(format: "a TIFF")
        }
        if let size = bmp(bytes) { return size }
        if let size = svg(bytes, isWhole: isWhole) { return size }
        if bytes.starts(with: [0x1F, 0x8B]) { return .compressed }
        return .unknown(prefix: Array(bytes.prefix(12)))
    }

    /// "a JPEG", "an SVG": the format `read` found the file to be, for a message about a
    /// size it could not find.
    public static func formatName(of bytes: [UInt8]) -> String {
        if case .cutShort(let format) = read(bytes, isWhole: true) { return format }
        return "an image"
    }

    private static func jpeg(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        var index = 2
        while index + 9 < bytes.count {
            guard bytes[index] == 0xFF else { return nil }
            let marker = bytes[index + 1]
            if marker == 0xFF {
                index += 1
                continue
            }
            if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) {
                index += 2
                continue
            }
            let length = bigEndian(bytes, index + 2, 2)
            let isStartOfFrame = (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
            if isStartOfFrame {
                return (bigEndian(bytes, index + 7, 2), bigEndian(bytes, index + 5, 2))
            }
            guard length >= 2 else { return nil }
            index += 2 + length
        }
        return nil
    }

    private static func webp(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        let chunk = String(decoding: bytes[12..<16], as: UTF8.self)
        switch chunk {
        case "VP8 ":
            return (littleEndian(bytes, 26, 2) & 0x3FFF, littleEndian(bytes, 28, 2) & 0x3FFF)
        case "VP8L":
            let b = bytes[21...24].map(Int.init)
            let width = 1 + (b[0] | (b[1] & 0x3F) << 8)
            let height = 1 + ((b[1] >> 6) | b[2] << 2 | (b[3] & 0x0F) << 10)
            return (width, height)
        case "VP8X":
            return (1 + littleEndian(bytes, 24, 3), 1 + littleEndian(bytes, 27, 3))
        default:
            return nil
        }
    }

    /// The brands of an ISO media file's `ftyp` box (AVIF, HEIC), nil for other files.
    private static func fileTypeBrands(_ bytes: [UInt8]) -> Set<String>? {
        guard bytes.count >= 16, bytes[4..<8].elementsEqual("ftyp".utf8) else { return nil }
        let end = min(bytes.count, max(16, bigEndian(bytes, 0, 4)))
        var brands: Set<String> = [String(decoding: bytes[8..<12], as: UTF8.self)]
        for start in stride(from: 16, to: end - 3, by: 4) {
            brands.insert(String(decoding: bytes[start..<start + 4], as: UTF8.self))
        }
        return brands
    }

    /// An AVIF's size is in its image spatial extents property (`ispe`): the first one
    /// is the primary image's in the files encoders write.
    private static func avif(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        let name = Array("ispe".utf8)
        var index = 4
        while index + 16 <= bytes.count {
            if bytes[index] == name[0], bytes[index..<index + 4].elementsEqual(name) {
                return (bigEndian(bytes, index + 8, 4), bigEndian(bytes, index + 12, 4))
            }
            index += 1
        }
        return nil
    }

    /// A Windows bitmap, known by its signature and the size of the header after it.
    private static func bmp(_ bytes: [UInt8]) -> ImageSize? {
        guard bytes.count >= 26, bytes.starts(with: Array("BM".utf8)) else { return nil }
        let headerSize = littleEndian(bytes, 14, 4)
        if headerSize == 12 {
            return .size(width: littleEndian(bytes, 18, 2), height: littleEndian(bytes, 20, 2))
        }
        guard [40, 52, 56, 64, 108, 124].contains(headerSize) else { return nil }
        // A negative height means rows stored top-down.
        let height = Int(Int32(truncatingIfNeeded: littleEndian(bytes, 22, 4)))
        return .size(width: littleEndian(bytes, 18, 4), height: abs(height))
    }

    /// An SVG's size is its root element's `width` and `height` in pixels, or its
    /// `viewBox`'s; nil when the file is no SVG.
    private static func svg(_ bytes: [UInt8], isWhole: Bool) -> ImageSize? {
        let text = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes[...]
        guard text.first(where: { !isXMLSpace($0) }) == UInt8(ascii: "<") else { return nil }
        let start = Array("<svg".utf8)
        var index = text.startIndex
        while index + 4 < text.endIndex {
            if text[index] == start[0], text[index..<index + 4].elementsEqual(start),
               isXMLSpace(text[index + 4]) || text[index + 4] == UInt8(ascii: ">") || text[index + 4] == UInt8(ascii: "/") {
                guard let attributes = svgAttributes(text[(index + 4)...]) else { return isWhole ? .cutShort(format: "an SVG") : .needsMore }
                return svgSize(attributes)
            }
            index += 1
        }
        return isWhole ? nil : .needsMore
    }

    /// The attributes of a start tag, from just after its name; nil when the tag does not end.
    private static func svgAttributes(_ tag: ArraySlice<UInt8>) -> [String: String]? {
        var attributes: [String: String] = [:]
        var index = tag.startIndex
        while index < tag.endIndex {
            let byte = tag[index]
            if byte == UInt8(ascii: ">") { return attributes }
            if isXMLSpace(byte) || byte == UInt8(ascii: "/") {
                index += 1
                continue
            }
            let nameStart = index
            while index < tag.endIndex, !isXMLSpace(tag[index]), tag[index] != UInt8(ascii: "="), tag[index] != UInt8(ascii: ">") { index += 1 }
            let name = String(decoding: tag[nameStart..<index], as: UTF8.self)
            while index < tag.endIndex, isXMLSpace(tag[index]) { index += 1 }
            guard index < tag.endIndex else { return nil }
            guard tag[index] == UInt8(ascii: "=") else { continue }
            index += 1
            while index < tag.endIndex, isXMLSpace(tag[index]) { index += 1 }
            guard index < tag.endIndex else { return nil }
            let quote = tag[index]
            guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else { continue }
            guard let end = tag[(index + 1)...].firstIndex(of: quote) else { return nil }
            attributes[name] = String(decoding: tag[(index + 1)..<end], as: UTF8.self)
            index = end + 1
        }
        return nil
    }

    private static func isXMLSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private static func svgSize(_ attributes: [String: String]) -> ImageSize {
        func pixels(_ key: String) -> Double? {
            guard var text = attributes[key].map({ $0.filter { $0 != " " } }) else { return nil }
            if text.hasSuffix("px") { text.removeLast(2) }
            guard let value = Double(text), value > 0, value.isFinite else { return nil }
            return value
        }
        let box = attributes["viewBox"].map { $0.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" || $0 == "\n" }).compactMap { Double($0) } }
        let boxSize = box.flatMap { $0.count == 4 && $0[2] > 0 && $0[3] > 0 && $0[2].isFinite && $0[3].isFinite ? ($0[2], $0[3]) : nil }
        let width = pixels("width")
        let height = pixels("height")
        let size: (Double, Double)? = switch (width, height, boxSize) {
        case (let width?, let height?, _): (width, height)
        case (let width?, nil, let box?): (width, width * box.1 / box.0)
        case (nil, let height?, let box?): (height * box.0 / box.1, height)
        case (nil, nil, let box?): box
        default: nil
        }
        guard let size, size.0.rounded() >= 1, size.1.rounded() >= 1, size.0 < 1e9, size.1 < 1e9 else { return .unsized }
        return .size(width: Int(size.0.rounded()), height: Int(size.1.rounded()))
    }

    /// A file's first bytes as text when they are text, else as hexadecimal bytes.
    private static func describe(_ prefix: [UInt8]) -> String {
        // The prefix may end inside a character: up to three bytes less are tried.
        for count in stride(from: prefix.count, through: max(1, prefix.count - 3), by: -1) {
            if let text = String(validating: prefix.prefix(count), as: UTF8.self),
               text.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F }) {
                return "'\(text)'"
            }
        }
        return "with the bytes " + prefix.prefix(8).map { byte in
            let hex = String(byte, radix: 16, uppercase: true)
            return hex.count == 1 ? "0" + hex : hex
        }.joined(separator: " ")
    }

    private static func bigEndian(_ bytes: [UInt8], _ offset: Int, _ count: Int) -> Int {
        (0..<count).reduce(0) { $0 << 8 | Int(bytes[offset + $1]) }
    }

    private static func littleEndian(_ bytes: [UInt8], _ offset: Int, _ count: Int) -> Int {
        (0..<count).reversed().reduce(0) { $0 << 8 | Int(bytes[offset + $1]) }
    }
}
