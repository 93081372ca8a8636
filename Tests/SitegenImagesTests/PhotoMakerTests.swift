import Foundation
@testable import SitegenImages
import Testing

/// libvips through sitegen's shim: one decode, upright, every width, no metadata.
@Suite("Making photos")
struct PhotoMakerTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/photos")

    private func fixture(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: Self.fixtures.appendingPathComponent(name)))
    }

    private func contains(_ bytes: [UInt8], _ text: String) -> Bool {
        let needle = Array(text.utf8)
        return bytes.indices.dropLast(needle.count - 1).contains { bytes[$0..<$0 + needle.count].elementsEqual(needle) }
    }

    @Test func makesEveryWidthUprightAndWithoutMetadata() throws {
        #expect(PhotoMaker.libraryProblem() == nil, "install libvips: Scripts/install-deps.sh")
        // Stored 64 × 48 with orientation 6: 48 × 64 upright.
        let sizes = [PhotoSize(width: 16, height: 21), PhotoSize(width: 32, height: 43), PhotoSize(width: 48, height: 64)]
        let made = try PhotoMaker.make(try fixture("phone.jpg"), size: PhotoSize(width: 48, height: 64), order: PhotoOrder(sizes: sizes, encodings: [.avif, .webp, .jpeg], original: .jpeg, quality: 75))
        #expect(made.images.map(\.requestedWidth) == [nil, 48, 48, 48, 32, 32, 32, 16, 16, 16])
        #expect(made.images.map { "\($0.width)x\($0.height)" } == ["48x64", "48x64", "48x64", "48x64", "32x43", "32x43", "32x43", "16x21", "16x21", "16x21"])
        for image in made.images {
            for marker in ["Exif", "EXIF", "xmpmeta", "GPS", "Sitegen Test Phone"] {
                #expect(!contains(image.bytes, marker), "\(image.encoding) \(image.width) carries \(marker)")
            }
        }
        // Red above, blue below: the mean colour is between them, a purple.
        let colour = try #require(made.meanColour)
        let channels = try #require(Int(colour.dropFirst(), radix: 16).map { [$0 >> 16, ($0 >> 8) & 0xFF, $0 & 0xFF] }, "\(colour)")
        #expect((0x60...0x90).contains(channels[0]) && channels[1] < 0x48 && (0x60...0x90).contains(channels[2]), "\(colour)")
    }

    @Test func aPhotoCutShortFails() throws {
        #expect(throws: PhotoFailure.self) {
            try PhotoMaker.make(try fixture("truncated.jpg"), size: PhotoSize(width: 160, height: 120), order: PhotoOrder(sizes: [PhotoSize(width: 80, height: 60)], encodings: [.jpeg], original: nil, quality: 75))
        }
        #expect(throws: PhotoFailure.self) {
            try PhotoMaker.make(Array("not a photo".utf8), size: PhotoSize(width: 160, height: 120), order: PhotoOrder(sizes: [PhotoSize(width: 80, height: 60)], encodings: [.jpeg], original: nil, quality: 75))
        }
    }

    @Test func removesTheMetadataChunksOfAWebP() {
        func chunk(_ kind: String, _ body: [UInt8]) -> [UInt8] {
            let size = UInt32(body.count)
            return Array(kind.utf8) + (0..<4).map { UInt8(truncatingIfNeeded: size >> (8 * UInt32($0))) } + body + (body.count % 2 == 1 ? [0] : [])
        }
        let header = chunk("VP8X", [0x08 | 0x04, 0, 0, 0, 0, 0, 0, 0, 0, 0])
        let picture = chunk("VP8 ", [1, 2, 3])
        let body = Array("WEBP".utf8) + header + picture + chunk("EXIF", Array("Exif\0\0GPS".utf8)) + chunk("XMP ", Array("<x/>".utf8))
        let webp = Array("RIFF".utf8) + (0..<4).map { UInt8(truncatingIfNeeded: UInt32(body.count) >> (8 * UInt32($0))) } + body
        let stripped = ContainerMetadata.strippedWebP(webp)
        let expectedBody = Array("WEBP".utf8) + chunk("VP8X", [0, 0, 0, 0, 0, 0, 0, 0, 0, 0]) + picture
        #expect(stripped == Array("RIFF".utf8) + (0..<4).map { UInt8(truncatingIfNeeded: UInt32(expectedBody.count) >> (8 * UInt32($0))) } + expectedBody)
        #expect(ContainerMetadata.strippedWebP(Array("RIFF\0\0\0\0WEBPVP8 ".utf8)) == Array("RIFF\0\0\0\0WEBPVP8 ".utf8))
    }
}
