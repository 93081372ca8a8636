import SitegenSupport

/// An image as a page shows it: where it is published, what it shows, how big it is.
struct ResolvedImage: Sendable, Hashable {
    /// A path inside the site (`articles/lovely-breakfast/toast.jpg`) or an absolute URL.
    var location: Location
    var alt: String
    var width: Int?
    var height: Int?

    enum Location: Sendable, Hashable {
        case site(String)
        case remote(String)
    }
}

/// Finds the files that content refers to. Relative paths resolve against the folder of
/// the file that names them, then against Content/; none may lead outside Content/.
struct ImageLookup: Sendable {
    /// Files of Content/ that are published as they are, by path relative to Content/.
    var staticFiles: Set<String>
    /// Reads the first bytes of a static file, for its pixel size.
    var readHeader: @Sendable (String) -> [UInt8]?

    enum Result {
        case found(path: String, width: Int?, height: Int?)
        case missing(candidates: [String])
        case outside
    }

    /// `source` as written in `contentFile` (both relative to Content/).
    func find(_ source: String, from contentFile: String) -> Result {
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
            let size = readHeader(candidate).flatMap(ImageSize.read)
            return .found(path: candidate, width: size?.width, height: size?.height)
        }
        return .missing(candidates: normalized)
    }

    /// Resolves `.` and `..`; nil when the path climbs out of its root.
    static func normalize(_ path: String) -> String? {
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
}

extension String {
    func splitOffQueryAndFragment() -> (path: String, rest: String) {
        guard let index = firstIndex(where: { $0 == "?" || $0 == "#" }) else { return (self, "") }
        return (String(self[..<index]), String(self[index...]))
    }

    func removingPercentEncodingIfValid() -> String {
        guard contains("%"), let bytes = PercentEncoding.decode(self) else { return self }
        return String(validating: bytes, as: UTF8.self) ?? self
    }
}

/// Reads the pixel size from the first bytes of a PNG, JPEG, GIF or WebP file.
enum ImageSize {
    /// How many bytes of a file are enough for `read`: a JPEG may put its size after
    /// a large EXIF block.
    static let headerLength = 256 * 1024

    static func read(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), bytes.count >= 24 {
            return (bigEndian(bytes, 16, 4), bigEndian(bytes, 20, 4))
        }
        if bytes.starts(with: Array("GIF8".utf8)), bytes.count >= 10 {
            return (littleEndian(bytes, 6, 2), littleEndian(bytes, 8, 2))
        }
        if bytes.starts(with: [0xFF, 0xD8]) {
            return jpeg(bytes)
        }
        if bytes.count >= 30, bytes.starts(with: Array("RIFF".utf8)), Array(bytes[8..<12]) == Array("WEBP".utf8) {
            return webp(bytes)
        }
        return nil
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

    private static func bigEndian(_ bytes: [UInt8], _ offset: Int, _ count: Int) -> Int {
        (0..<count).reduce(0) { $0 << 8 | Int(bytes[offset + $1]) }
    }

    private static func littleEndian(_ bytes: [UInt8], _ offset: Int, _ count: Int) -> Int {
        (0..<count).reversed().reduce(0) { $0 << 8 | Int(bytes[offset + $1]) }
    }
}
