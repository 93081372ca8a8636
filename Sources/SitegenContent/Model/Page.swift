import Foundation
import SitegenMarkdown
import SitegenSupport
import SitegenYAML

/// A plain page: `Content/pages/**/*.md`, published at `/<slug>/`.
public struct Page: Sendable {
    public var sourcePath: String
    public var slug: Slug
    /// Where the slug is written (the file's start when its name makes it).
    public var slugPlace: LineAndColumn
    public var slugLocation: SourceLocation { slugPlace.location(in: sourcePath) }
    public var title: String
    public var summary: String
    public var draft: Bool
    public var html: String
    public var links: [ContentLink]
    /// The photos the page shows, each once.
    public var photos: [ResolvedImage] = []
    public var extra: Extra

    public init(file: ContentFile, context: ModelContext, log: DiagnosticLog) throws(InvalidContent) {
        let errorsBefore = log.entries.count
        let fields = FieldReader(file.frontMatter, keys: ContentKeys.page, log: log, emptyLocation: file.start, memo: context.memo)
        let title = fields.requiredText("title")
        let summary = fields.optionalText("summary", limit: .summary)
        let slug = file.slug(from: fields, example: "about")
        draft = fields.optional("draft", Bool.self) ?? false
        extra = fields.extra()
        fields.reportUnknownKeys(what: "page front matter")
        let body = ContentBody.render(file, context: context, log: log, splitsAtImages: false)
        html = String(decoding: body.html, as: UTF8.self)
        links = body.links
        photos = body.photos
        self.summary = summary ?? Summary.make(from: body.firstParagraph ?? "")
        guard let title, let slug, !log.entries[errorsBefore...].contains(where: { $0.severity == .error }) else {
            throw InvalidContent()
        }
        self.sourcePath = file.path
        self.title = title
        self.slug = slug.slug
        slugPlace = LineAndColumn(slug.location)
    }

    /// Every field, as a store of models gives them back.
    public init(sourcePath: String, slug: Slug, slugPlace: LineAndColumn, title: String, summary: String, draft: Bool, html: String, links: [ContentLink], extra: Extra = .none, photos: [ResolvedImage] = []) {
        self.sourcePath = sourcePath
        self.slug = slug
        self.slugPlace = slugPlace
        self.title = title
        self.summary = summary
        self.draft = draft
        self.html = html
        self.links = links
        self.extra = extra
        self.photos = photos
    }
}

extension BinaryWriter {
    public mutating func page(_ value: Page) {
        string(value.sourcePath)
        string(value.slug.text)
        place(value.slugPlace)
        string(value.title)
        string(value.summary)
        bool(value.draft)
        string(value.html)
        array(value.links) { $0.link($1) }
        extra(value.extra)
        array(value.photos) { $0.image($1) }
    }
}

extension Page {
    public init(from reader: inout BinaryReader) throws(BinaryReader.Corrupt) {
        let sourcePath = try reader.string()
        let slug = try reader.slug()
        let slugPlace = try reader.place()
        let title = try reader.string()
        let summary = try reader.string()
        let draft = try reader.bool()
        let html = try reader.string()
        let links = try reader.array { reader throws(BinaryReader.Corrupt) in try reader.link() }
        let extra = try reader.extra()
        let photos = try reader.array { reader throws(BinaryReader.Corrupt) in try reader.image() }
        self.init(sourcePath: sourcePath, slug: slug, slugPlace: slugPlace, title: title, summary: summary, draft: draft, html: html, links: links, extra: extra, photos: photos)
    }
}
