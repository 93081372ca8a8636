import Foundation
import SitegenMarkdown
import SitegenMustache
import SitegenSupport
import SitegenYAML

/// A plain page: `Content/pages/**/*.md`, published at `/<slug>/`.
struct Page: Sendable {
    var sourcePath: String
    var slug: Slug
    /// Where the slug is written (the file's start when its name makes it).
    var slugPlace: SlugPlace
    var slugLocation: SourceLocation { slugPlace.location(in: sourcePath) }
    var title: String
    var summary: String
    var draft: Bool
    var html: String
    var links: [ContentLink]

    init(file: ContentFile, context: ModelContext, log: DiagnosticLog) throws(InvalidContent) {
        let errorsBefore = log.entries.count
        let fields = FieldReader(file.frontMatter, keys: ContentKeys.page, log: log, emptyLocation: file.start)
        let title = fields.requiredText("title")
        let summary = fields.optionalText("summary")
        let slug = file.slug(from: fields, example: "about")
        draft = fields.optional("draft", Bool.self) ?? false
        fields.reportUnknownKeys(what: "page front matter")
        let body = ContentBody.render(file, context: context, log: log)
        html = String(decoding: body.html, as: UTF8.self)
        links = body.links
        self.summary = summary ?? Summary.make(from: body.firstParagraph ?? "")
        guard let title, let slug, !log.entries[errorsBefore...].contains(where: { $0.severity == .error }) else {
            throw InvalidContent()
        }
        self.sourcePath = file.path
        self.title = title
        self.slug = slug.slug
        slugPlace = SlugPlace(slug.location)
    }
}
