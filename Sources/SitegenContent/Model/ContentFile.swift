import Foundation
import SitegenMarkdown
import SitegenSupport
import SitegenYAML

/// A Markdown file of Content/ cut into front matter and body, its YAML read.
public struct ContentFile: Sendable {
    /// Relative to the site: `Content/articles/lovely-breakfast/index.md`.
    public var path: String
    /// Relative to Content/: `articles/lovely-breakfast/index.md`.
    public var contentPath: String
    public var frontMatter: YAMLNode?
    public var body: [UInt8]
    public var bodyFirstLine: Int

    public var fileStem: String {
        // Cut on the path's bytes: splitting it into characters, and comparing substrings
        // character by character, cost more than the rest of reading the front matter.
        var path = contentPath
        return path.withUTF8 { bytes in
            let slash = UInt8(ascii: "/")
            let nameStart = (bytes.lastIndex(of: slash) ?? -1) + 1
            var stemEnd = bytes.count
            if stemEnd - nameStart >= 3, bytes[(stemEnd - 3)...].elementsEqual(".md".utf8) { stemEnd -= 3 }
            // A folder with an index.md is the article: its name makes the URL.
            if nameStart > 0, bytes[nameStart..<stemEnd].elementsEqual("index".utf8) {
                let folderEnd = nameStart - 1
                let folderStart = (bytes[..<folderEnd].lastIndex(of: slash) ?? -1) + 1
                if folderStart < folderEnd { return String(decoding: UnsafeBufferPointer(rebasing: bytes[folderStart..<folderEnd]), as: UTF8.self) }
            }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[nameStart..<stemEnd]), as: UTF8.self)
        }
    }

    /// The slug a file gets when its front matter names none.
    public var defaultSlug: Slug? {
        var stem = Substring(fileStem)
        // A date and a hyphen before the name are dropped; the byte checked first spares
        // names without one the characters' work.
        let bytes = stem.utf8
        if bytes.count > 11, let dash = bytes.index(bytes.startIndex, offsetBy: 10, limitedBy: bytes.endIndex), bytes[dash] == UInt8(ascii: "-") {
            // Digits, hyphens and the ASCII byte after them are characters of their own:
            // cut on the bytes (counting characters cost more than the rest of the slug).
            let name = bytes.index(after: dash)
            if bytes[name] < 0x80 {
                if CalendarDate(parsing: stem[..<dash]) != nil { stem = stem[name...] }
            } else if CalendarDate(parsing: stem.prefix(10)) != nil, stem.dropFirst(10).first == "-" {
                stem = stem.dropFirst(11)
            }
        }
        return Slug(making: String(stem))
    }

    public var start: SourceLocation { SourceLocation(path: path, line: 1, column: 1) }

    /// The `slug` of the front matter, or the one the file name makes, and where it is
    /// written (the file's start when its name makes it).
    public func slug(from fields: FieldReader, example: String) -> (slug: Slug, location: SourceLocation)? {
        if let node = fields.node("slug") { return fields.read(node, key: "slug").map { ($0, node.location) } }
        guard let slug = defaultSlug else {
            fields.log.error(at: start, "cannot make a URL from the file name '\(fileStem)': add a 'slug' like \(example)")
            return nil
        }
        return (slug, start)
    }

    public init(path: String, contentPath: String, frontMatter: YAMLNode? = nil, body: [UInt8], bodyFirstLine: Int) {
        self.path = path
        self.contentPath = contentPath
        self.frontMatter = frontMatter
        self.body = body
        self.bodyFirstLine = bodyFirstLine
    }
}

/// A link an author wrote in Markdown: as written, as published, and where.
public struct ContentLink: Sendable, Hashable {
    public var written: String
    public var resolved: String
    public var location: SourceLocation

    public init(written: String, resolved: String, location: SourceLocation) {
        self.written = written
        self.resolved = resolved
        self.location = location
    }
}

/// What every model needs from its surroundings while it is built.
public struct ModelContext: Sendable {
    public var site: Site
    public var teachers: [String: Teacher]
    public var images: ImageLookup
    /// What the build's files made so far, for the texts that come back.
    public var memo: ReadingMemo

    public init(site: Site, teachers: [String: Teacher], images: ImageLookup, memo: ReadingMemo = ReadingMemo()) {
        self.site = site
        self.teachers = teachers
        self.images = images
        self.memo = memo
    }
}
