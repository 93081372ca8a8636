import SitegenContent
import SitegenSupport

/// The theme's stylesheets, scripts and icons as they are published: minified where that
/// is safe, and named after a hash of their content (`style.3f9a1c2e.css`), so that hosts
/// may cache them forever and a changed file gets a new name.
struct PublishedAssets: Sendable {
    /// Files by their output path.
    var files: [String: [UInt8]]
    /// The URL path of each fingerprinted asset, by extension and name: `css` → `style` →
    /// `assets/style.3f9a1c2e.css`.
    var paths: [String: [String: String]]

    /// Only files directly in `assets/` are fingerprinted: files in its folders (Leaflet's
    /// images) are referred to by relative paths that must not change.
    static let fingerprinted: Set<String> = ["css", "js", "svg", "png", "jpg", "jpeg", "webp", "gif", "ico", "woff", "woff2"]

    init(theme assets: [String: [UInt8]], minify: Bool) {
        var files: [String: [UInt8]] = [:]
        var paths: [String: [String: String]] = [:]
        for (path, original) in assets {
            guard let (stem, ext) = PublishedAssets.fingerprintedParts(of: path) else {
                files[path] = original
                continue
            }
            let bytes = minify && ext.lowercased() == "css" ? CSSMinifier.minify(original) : original
            let name = "assets/\(stem).\(ContentHash.hex(bytes)).\(ext)"
            files[name] = bytes
            paths[ext.lowercased(), default: [:]][stem] = name
        }
        self.files = files
        self.paths = paths
    }

    /// The name and extension of a theme file that is published fingerprinted (`style` and
    /// `css` for `assets/style.css`), or nil for one published as it is.
    static func fingerprintedParts(of path: String) -> (stem: String, ext: String)? {
        let parts = path.split(separator: "/")
        guard parts.count == 2, parts[0] == "assets", let dot = parts[1].lastIndex(of: ".") else { return nil }
        let ext = String(parts[1][parts[1].index(after: dot)...])
        guard fingerprinted.contains(ext.lowercased()) else { return nil }
        return (String(parts[1][..<dot]), ext)
    }
}

/// Hashes of file contents.
enum ContentHash {
    /// 64 bits of every source file, template and page, 16 bytes per multiply (the
    /// multiply-and-fold of wyhash), not FNV-1a's one dependent multiply per byte: a build
    /// hashes everything it reads and writes. Kept only in the build cache, on this machine.
    static func value(_ bytes: [UInt8]) -> UInt64 {
        bytes.withUnsafeBytes(value)
    }

    static func value(_ raw: UnsafeRawBufferPointer) -> UInt64 {
        let secrets: (UInt64, UInt64, UInt64, UInt64) = (0xa076_1d64_78bd_642f, 0xe703_7ed1_a0b4_28db, 0x8ebc_6af0_9c88_c6e3, 0x5899_65cc_7537_4cc3)
        var seed = secrets.0 ^ UInt64(raw.count)
        var offset = 0
        // Two lanes, 32 bytes a step, while there are that many: the multiplies of one
        // lane do not wait for the other's.
        if raw.count >= 64 {
            var other = secrets.2 ^ seed
            while offset + 32 <= raw.count {
                let words = (raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self), raw.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self),
                             raw.loadUnaligned(fromByteOffset: offset + 16, as: UInt64.self), raw.loadUnaligned(fromByteOffset: offset + 24, as: UInt64.self))
                seed = fold(UInt64(littleEndian: words.0) ^ secrets.1, UInt64(littleEndian: words.1) ^ seed)
                other = fold(UInt64(littleEndian: words.2) ^ secrets.3, UInt64(littleEndian: words.3) ^ other)
                offset += 32
            }
            seed ^= other
        }
        while offset + 16 <= raw.count {
            let low = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            let high = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self))
            seed = fold(low ^ secrets.1, high ^ seed)
            offset += 16
        }
        var tail: (UInt64, UInt64) = (0, 0)
        for index in offset..<raw.count {
            let shift = UInt64((index - offset) % 8 * 8)
            if index - offset < 8 { tail.0 |= UInt64(raw[index]) << shift } else { tail.1 |= UInt64(raw[index]) << shift }
        }
        return fold(fold(tail.0 ^ secrets.2, tail.1 ^ seed) ^ secrets.3, UInt64(raw.count) ^ secrets.1)
    }

    private static func fold(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let product = a.multipliedFullWidth(by: b)
        return product.high ^ product.low
    }

    /// Eight hex digits that name a version of a file in URLs and cache names: FNV-1a,
    /// the same on every machine and in every release (a URL must not change with sitegen).
    static func hex(_ bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        let text = String(hash, radix: 16)
        let padded = String(repeating: "0", count: max(0, 16 - text.count)) + text
        return String(padded.prefix(8))
    }
}

/// Removes comments and the whitespace CSS does not need, leaving strings alone. Spaces
/// between words stay (one of them): `a :hover` and `a:hover` mean different things.
enum CSSMinifier {
    static func minify(_ css: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(css.count)
        var index = 0
        var pendingSpace = false
        let tight: Set<UInt8> = Set("{};,>".utf8)
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 || byte == 0x0C }
        while index < css.count {
            let byte = css[index]
            if byte == UInt8(ascii: "/"), index + 1 < css.count, css[index + 1] == UInt8(ascii: "*") {
                var end = index + 2
                while end + 1 < css.count, !(css[end] == UInt8(ascii: "*") && css[end + 1] == UInt8(ascii: "/")) { end += 1 }
                index = min(end + 2, css.count)
                pendingSpace = pendingSpace || !output.isEmpty
                continue
            }
            if isSpace(byte) {
                pendingSpace = !output.isEmpty
                index += 1
                continue
            }
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                if pendingSpace, let last = output.last, !tight.contains(last) { output.append(0x20) }
                pendingSpace = false
                var end = index + 1
                while end < css.count, css[end] != byte {
                    if css[end] == UInt8(ascii: "\\") { end += 1 }
                    end += 1
                }
                output.append(contentsOf: css[index..<min(end + 1, css.count)])
                index = end + 1
                continue
            }
            if byte == UInt8(ascii: "}"), output.last == UInt8(ascii: ";") { output.removeLast() }
            if pendingSpace, let last = output.last, !tight.contains(last), !tight.contains(byte) {
                output.append(0x20)
            }
            pendingSpace = false
            output.append(byte)
            index += 1
        }
        if !output.isEmpty { output.append(0x0A) }
        return output
    }
}
