import CVips

/// A format photos are written in.
public enum ImageEncoding: String, Sendable, Hashable, CaseIterable {
    case avif, webp, jpeg, png

    public var fileExtension: String { self == .jpeg ? "jpg" : rawValue }
    public var mediaType: String { "image/" + rawValue }

    var library: sitegen_encoding {
        switch self {
        case .jpeg: SITEGEN_ENCODE_JPEG
        case .webp: SITEGEN_ENCODE_WEBP
        case .avif: SITEGEN_ENCODE_AVIF
        case .png: SITEGEN_ENCODE_PNG
        }
    }
}

/// What to make of one photo.
public struct PhotoOrder: Sendable {
    /// Each size in each encoding, never larger than the photo.
    public var sizes: [PhotoSize]
    public var encodings: [ImageEncoding]
    /// The photo at its own size, in this encoding, as a kept original.
    public var original: ImageEncoding?
    public var quality: Int

    public init(sizes: [PhotoSize], encodings: [ImageEncoding], original: ImageEncoding?, quality: Int) {
        self.sizes = sizes
        self.encodings = encodings
        self.original = original
        self.quality = quality
    }
}

/// A size in pixels.
public struct PhotoSize: Sendable, Hashable {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
}

/// One file made of a photo.
public struct MadeImage: Sendable {
    /// The width asked for (nil for the original) and the size made.
    public var requestedWidth: Int?
    public var width: Int
    public var height: Int
    public var encoding: ImageEncoding
    public var bytes: [UInt8]
}

/// Everything made of one photo.
public struct MadePhoto: Sendable {
    public var images: [MadeImage]
    /// The photo's mean colour, `#rrggbb`, shown while it loads.
    public var meanColour: String?
}

/// Why a photo could not be made, in libvips's words.
public struct PhotoFailure: Error, Sendable {
    public var reason: String
}

/// Makes the published files of photos through libvips: one decode per photo, turned upright
/// and into sRGB, then each width made from it; no file made carries the photo's metadata.
public enum PhotoMaker {
    /// nil when libvips is ready; else why not, for a message that names the package.
    public static func libraryProblem() -> String? {
        var error: UnsafePointer<CChar>?
        guard sitegen_vips_open(&error) != 0 else { return nil }
        return error.map { String(cString: $0) } ?? "libvips would not start"
    }

    /// Makes `order` of the photo in `bytes`, whose own size, upright, is `size`.
    public static func make(_ bytes: [UInt8], size: PhotoSize, order: PhotoOrder) throws(PhotoFailure) -> MadePhoto {
        if let problem = libraryProblem() { throw PhotoFailure(reason: problem) }
        let largest = order.original != nil ? size : order.sizes.max { $0.width < $1.width } ?? size
        let decoded = try picture { error in
            bytes.withUnsafeBytes { buffer in
                sitegen_picture_decode(buffer.baseAddress, buffer.count, Int32(largest.width), Int32(largest.height), &error)
            }
        }
        defer { sitegen_picture_free(decoded) }
        var images: [MadeImage] = []
        if let original = order.original {
            images.append(try encode(decoded, original, requestedWidth: nil, quality: max(order.quality, 90)))
        }
        // Each width is made from the one above it: every resize reads fewer pixels than
        // one from the decoded photo would, and the quality is alike.
        var smallest: OpaquePointer?
        defer { if smallest != decoded { sitegen_picture_free(smallest) } }
        for target in order.sizes.sorted(by: { $0.width > $1.width }) {
            let above = smallest ?? decoded
            let isSame = target.width == Int(sitegen_picture_width(above)) && target.height == Int(sitegen_picture_height(above))
            let sized = isSame ? above : try picture { error in
                sitegen_picture_resized(above, Int32(target.width), Int32(target.height), &error)
            }
            if sized != above, above != decoded { sitegen_picture_free(above) }
            smallest = sized
            for encoding in order.encodings {
                images.append(try encode(sized, encoding, requestedWidth: target.width, quality: order.quality))
            }
        }
        let colour = smallest.map { sitegen_picture_mean_colour($0) } ?? -1
        return MadePhoto(images: images, meanColour: colour < 0 ? nil : hexColour(colour))
    }

    private static func picture(_ make: (inout UnsafeMutablePointer<CChar>?) -> OpaquePointer?) throws(PhotoFailure) -> OpaquePointer {
        var error: UnsafeMutablePointer<CChar>?
        guard let picture = make(&error) else {
            defer { sitegen_error_free(error) }
            throw PhotoFailure(reason: error.map { String(cString: $0) } ?? "libvips gave no reason")
        }
        return picture
    }

    private static func encode(_ picture: OpaquePointer, _ encoding: ImageEncoding, requestedWidth: Int?, quality: Int) throws(PhotoFailure) -> MadeImage {
        var output: UnsafeMutableRawPointer?
        var length = 0
        var error: UnsafeMutablePointer<CChar>?
        guard sitegen_picture_encode(picture, encoding.library, Int32(quality), &output, &length, &error) == 0, let output else {
            defer { sitegen_error_free(error) }
            throw PhotoFailure(reason: error.map { String(cString: $0) } ?? "libvips gave no reason")
        }
        defer { sitegen_buffer_free(output) }
        var bytes = [UInt8](UnsafeRawBufferPointer(start: output, count: length))
        if encoding == .webp { bytes = ContainerMetadata.strippedWebP(bytes) }
        return MadeImage(requestedWidth: requestedWidth, width: Int(sitegen_picture_width(picture)), height: Int(sitegen_picture_height(picture)), encoding: encoding, bytes: bytes)
    }

    private static func hexColour(_ rgb: Int32) -> String {
        let digits = Array("0123456789abcdef")
        return "#" + stride(from: 20, through: 0, by: -4).map { String(digits[Int(rgb >> Int32($0)) & 0xF]) }.joined()
    }
}
