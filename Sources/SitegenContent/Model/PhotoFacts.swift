/// What a photo file's first bytes say beyond its size: whether sitegen makes published
/// sizes of it, and which way up it is meant to be seen.
extension PhotoFile {
    /// The file extensions of the photos sitegen opens.
    public static let extensions: Set<String> = ["jpg", "jpeg", "png", "webp", "avif"]

    /// Whether the file's name says it is a photo sitegen opens.
    public static func hasPhotoExtension(_ path: String) -> Bool {
        guard let dot = path.lastIndex(of: "."), !path[path.index(after: dot)...].contains("/") else { return false }
        return extensions.contains(path[path.index(after: dot)...].lowercased())
    }

    /// The photo whose first bytes are `bytes` (`ImageSize.read` found it `width` ×
    /// `height` as stored), upright; nil when it is none sitegen makes sizes of.
    public init?(header bytes: [UInt8], width: Int, height: Int) {
        guard let format = PhotoFile.format(of: bytes) else { return nil }
        let turned = format == .jpeg && ImageSize.jpegOrientation(bytes) >= 5
        self.init(format: format, width: turned ? height : width, height: turned ? width : height)
    }

    /// The format of a still photo sitegen makes sizes of, from the file's first bytes;
    /// nil for every other file: an animation (GIF, animated PNG or WebP, an AVIF
    /// sequence) and a drawing (SVG) are published as they are.
    public static func format(of bytes: [UInt8]) -> Format? {
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            return isAnimatedPNG(bytes) ? nil : .png
        }
        if bytes.count >= 30, bytes.starts(with: Array("RIFF".utf8)), bytes[8..<12].elementsEqual("WEBP".utf8) {
            // An extended WebP says in its flags whether it is animated.
            let isAnimated = bytes[12..<16].elementsEqual("VP8X".utf8) && bytes[20] & 0x02 != 0
            return isAnimated ? nil : .webp
        }
        if bytes.count >= 12, bytes[4..<8].elementsEqual("ftyp".utf8), bytes[8..<12].elementsEqual("avif".utf8) {
            return .avif
        }
        return nil
    }

    /// Whether a PNG has an animation control chunk, which comes before its first image data.
    private static func isAnimatedPNG(_ bytes: [UInt8]) -> Bool {
        var index = 8
        while index + 8 <= bytes.count {
            let length = bytes[index..<index + 4].reduce(0) { $0 << 8 | Int($1) }
            let type = bytes[index + 4..<index + 8]
            if type.elementsEqual("acTL".utf8) { return true }
            if type.elementsEqual("IDAT".utf8) { return false }
            index += 12 + length
        }
        return false
    }
}

extension ImageSize {
    /// Whether the file is no image at all, or one cut short before its size.
    public static func isBroken(_ size: ImageSize) -> Bool {
        switch size {
        case .empty, .cutShort, .unknown: true
        default: false
        }
    }

    /// A JPEG's EXIF orientation, 1 (upright) to 8; 5 to 8 mean it is stored turned a
    /// quarter, so that it is seen with its width and height swapped. 1 when it says none.
    public static func jpegOrientation(_ bytes: [UInt8]) -> Int {
        var index = 2
        while index + 4 <= bytes.count, bytes[index] == 0xFF {
            let marker = bytes[index + 1]
            // The image data starts: no more segments of metadata.
            if marker == 0xDA { return 1 }
            let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
            let start = index + 4
            if marker == 0xE1, start + 6 <= bytes.count, bytes[start..<start + 6].elementsEqual([0x45, 0x78, 0x69, 0x66, 0, 0]) {
                return exifOrientation(bytes, tiff: start + 6, end: min(bytes.count, index + 2 + length))
            }
            guard length >= 2 else { return 1 }
            index += 2 + length
        }
        return 1
    }

    /// The orientation tag (0x0112) of the first directory of the TIFF structure EXIF is.
    private static func exifOrientation(_ bytes: [UInt8], tiff: Int, end: Int) -> Int {
        guard tiff + 8 <= end else { return 1 }
        let isLittle = bytes[tiff] == 0x49
        func number(_ offset: Int, _ count: Int) -> Int? {
            guard offset >= tiff, offset + count <= end else { return nil }
            let slice = bytes[offset..<offset + count]
            return isLittle ? slice.reversed().reduce(0) { $0 << 8 | Int($1) } : slice.reduce(0) { $0 << 8 | Int($1) }
        }
        guard let directory = number(tiff + 4, 4), let count = number(tiff + directory, 2) else { return 1 }
        for entry in 0..<min(count, 512) {
            let at = tiff + directory + 2 + entry * 12
            guard let tag = number(at, 2) else { return 1 }
            if tag == 0x0112, let value = number(at + 8, 2), (1...8).contains(value) { return value }
        }
        return 1
    }
}
