import SitegenContent
import SitegenSupport

/// The theme's stylesheets, scripts and icons as they are published: minified where that
/// is safe, and named after a hash of their content (`style.3f9a1c2e.css`), so that hosts
/// may cache them forever and a changed file gets a new name.
public struct PublishedAssets: Sendable {
    /// Files by their output path.
    public var files: [String: [UInt8]]
    /// The URL path of each fingerprinted asset, by extension and name: `css` → `style` →
    /// `assets/style.3f9a1c2e.css`.
    public var paths: [String: [String: String]]

    /// Only files directly in `assets/` are fingerprinted: files in its folders (Leaflet's
    /// images) are referred to by relative paths that must not change.
    public static let fingerprinted: Set<String> = ["css", "js", "svg", "png", "jpg", "jpeg", "webp", "gif", "ico", "woff", "woff2"]

    public init(theme assets: [String: [UInt8]], minify: Bool) {
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
    public static func fingerprintedParts(of path: String) -> (stem: String, ext: String)? {
        let parts = path.split(separator: "/")
        guard parts.count == 2, parts[0] == "assets", let dot = parts[1].lastIndex(of: ".") else { return nil }
        let ext = String(parts[1][parts[1].index(after: dot)...])
        guard fingerprinted.contains(ext.lowercased()) else { return nil }
        return (String(parts[1][..<dot]), ext)
    }
}

/// Removes comments and the whitespace CSS does not need, leaving strings alone. Spaces
/// between words stay (one of them): `a :hover` and `a:hover` mean different things.
public enum CSSMinifier {
    public static func minify(_ css: [UInt8]) -> [UInt8] {
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
