/// Metadata blocks a saver writes whatever it is asked: libvips 8.14 writes a WebP's EXIF
/// chunk from the image's resolution and orientation even when told to strip. Removed
/// from the encoded bytes, so that no published file carries an EXIF or XMP block at all.
enum ContainerMetadata {
    /// A WebP without its `EXIF` and `XMP ` chunks, its extended header's flags saying so;
    /// other bytes as they are.
    static func strippedWebP(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.count >= 30, bytes.starts(with: Array("RIFF".utf8)), bytes[8..<12].elementsEqual("WEBP".utf8),
              bytes[12..<16].elementsEqual("VP8X".utf8) else { return bytes }
        var output = Array(bytes[0..<12])
        var index = 12
        var removed = false
        while index + 8 <= bytes.count {
            let size = Int(bytes[index + 4]) | Int(bytes[index + 5]) << 8 | Int(bytes[index + 6]) << 16 | Int(bytes[index + 7]) << 24
            // Chunks are padded to an even size.
            let end = min(bytes.count, index + 8 + size + (size & 1))
            let kind = bytes[index..<index + 4]
            if kind.elementsEqual("EXIF".utf8) || kind.elementsEqual("XMP ".utf8) {
                removed = true
            } else {
                output.append(contentsOf: bytes[index..<end])
            }
            index = end
        }
        guard removed else { return bytes }
        // VP8X's flags: 0x08 says there is EXIF, 0x04 XMP.
        output[20] &= ~(0x08 | 0x04)
        let riffSize = UInt32(output.count - 8)
        for byte in 0..<4 { output[4 + byte] = UInt8(truncatingIfNeeded: riffSize >> (8 * UInt32(byte))) }
        return output
    }
}
