import Foundation
import SitegenPlatform
import SitegenSupport

/// Answers requests with the files of one folder, served under a base path (`/food/`):
/// folders by their index.html, a folder without its slash redirected, missing files with
/// the site's 404.html, ETags and 304s. No path outside the folder is ever read: `..`,
/// encoded slashes, backslashes, NUL and links that lead out are refused.
public struct StaticFiles: Sendable {
    /// The one hidden folder served: the web's folder of site metadata (RFC 8615).
    public static let wellKnown = ".well-known"

    public var root: String
    public var basePath: String
    /// Changes an HTML page before it is sent (the dev server adds its reload script).
    public var transformHTML: (@Sendable ([UInt8]) -> [UInt8])?

    public init(root: String, basePath: String = "/", transformHTML: (@Sendable ([UInt8]) -> [UInt8])? = nil) {
        self.root = root
        self.basePath = basePath.hasSuffix("/") ? basePath : basePath + "/"
        self.transformHTML = transformHTML
    }

    public func respond(to request: HTTPServer.Request) -> HTTPServer.Response {
        guard let decoded = StaticFiles.decode(request.path) else { return .text(400, "bad request path") }
        guard decoded.hasPrefix(basePath) || decoded + "/" == basePath else { return notFound() }
        if decoded + "/" == basePath { return redirect(to: basePath, query: request.query) }
        let relative = String(decoded.dropFirst(basePath.count))
        let parts = relative.split(separator: "/", omittingEmptySubsequences: false)
        // Hidden names are refused (a `.git` left in the folder), but the folder the web gives
        // a meaning (RFC 8615).
        if parts.contains(where: { $0 == ".." || $0 == "." || $0.hasPrefix(".") && $0 != StaticFiles.wellKnown }) { return .text(400, "bad request path") }
        guard let realRoot = StaticFiles.realPath(root) else { return notFound() }
        var path = root + "/" + relative
        var info = stat()
        guard stat(path, &info) == 0 else { return notFound() }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            if !relative.isEmpty, !relative.hasSuffix("/") { return redirect(to: request.path + "/", query: request.query) }
            path += (path.hasSuffix("/") ? "" : "/") + "index.html"
        }
        // A link inside the folder may lead anywhere: only what really lies inside is served.
        guard let real = StaticFiles.realPath(path), real == realRoot || real.hasPrefix(realRoot + "/") else { return notFound() }
        guard stat(real, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, let bytes = readFile(real) else { return notFound() }
        return file(bytes, name: real, request: request, status: 200)
    }

    private func file(_ bytes: [UInt8], name: String, request: HTTPServer.Request, status: Int) -> HTTPServer.Response {
        let type = StaticFiles.contentType(for: name)
        var body = bytes
        if type.hasPrefix("text/html"), let transformHTML { body = transformHTML(bytes) }
        let etag = "\"" + StaticFiles.hash(body) + "\""
        var headers: [(String, String)] = [("Content-Type", type), ("ETag", etag)]
        headers.append(("Cache-Control", type.hasPrefix("text/html") ? "no-store" : "no-cache"))
        if status == 200, let match = request.header("if-none-match"), match.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == etag || $0.trimmingCharacters(in: .whitespaces) == "*" }) {
            return HTTPServer.Response(status: 304, headers: headers)
        }
        return HTTPServer.Response(status: status, headers: headers, body: body)
    }

    private func notFound() -> HTTPServer.Response {
        let page = root + "/404.html"
        if let bytes = readFile(page) {
            let request = HTTPServer.Request(method: "GET", path: "/404.html", query: "", headers: [:])
            return file(bytes, name: page, request: request, status: 404)
        }
        return .text(404, "not found")
    }

    private func redirect(to path: String, query: String) -> HTTPServer.Response {
        HTTPServer.Response(status: 301, headers: [("Location", path + (query.isEmpty ? "" : "?" + query)), ("Content-Type", "text/plain; charset=utf-8")],
                            body: Array("moved to \(path)\n".utf8))
    }

    private func readFile(_ path: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path).map(Array.init)
    }

    /// Percent-decodes a path once; nil for what no file path may hold (an encoded slash
    /// or backslash, NUL, a backslash, invalid UTF-8) or a path that is not absolute.
    static func decode(_ path: String) -> String? {
        guard path.hasPrefix("/"), !path.contains("\\") else { return nil }
        let forbidden: Set<UInt8> = [UInt8(ascii: "/"), UInt8(ascii: "\\"), 0, UInt8(ascii: "%")]
        guard let bytes = PercentEncoding.decode(path, refusing: forbidden.contains), !bytes.contains(0),
              let text = String(validating: bytes, as: UTF8.self), !text.contains("//") else { return nil }
        return text
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    static func hash(_ bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return String(hash, radix: 16)
    }

    /// The media type of every kind of file a site holds, with a charset for text.
    static func contentType(for path: String) -> String {
        let ext = (path.split(separator: "/").last.flatMap { name in name.lastIndex(of: ".").map { name[name.index(after: $0)...] } }).map { $0.lowercased() } ?? ""
        switch ext {
        case "html", "htm": return "text/html; charset=utf-8"
        case "css": return "text/css; charset=utf-8"
        case "js", "mjs": return "text/javascript; charset=utf-8"
        case "json", "map": return "application/json; charset=utf-8"
        case "xml": return path.hasSuffix("feed.xml") ? "application/atom+xml; charset=utf-8" : "application/xml; charset=utf-8"
        case "ics": return "text/calendar; charset=utf-8"
        case "txt": return "text/plain; charset=utf-8"
        case "md": return "text/markdown; charset=utf-8"
        case "svg": return "image/svg+xml; charset=utf-8"
        case "png": return "image/png"
        case "jpg", "jpeg": return "image/jpeg"
        case "gif": return "image/gif"
        case "webp": return "image/webp"
        case "avif": return "image/avif"
        case "ico": return "image/x-icon"
        case "woff2": return "font/woff2"
        case "woff": return "font/woff"
        case "ttf": return "font/ttf"
        case "otf": return "font/otf"
        case "pdf": return "application/pdf"
        case "mp4": return "video/mp4"
        case "webm": return "video/webm"
        case "mp3": return "audio/mpeg"
        case "wasm": return "application/wasm"
        case "zip": return "application/zip"
        default: return "application/octet-stream"
        }
    }
}
