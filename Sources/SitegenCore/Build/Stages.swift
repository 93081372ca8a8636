import Foundation
import SitegenContent
import SitegenFiles
import SitegenSupport
import SitegenYAML

/// The **parse** stage: UTF-8 checked, front matter cut from the body, YAML read.
enum Parse {
    struct Settings: Sendable {
        var site: YAMLNode?
        /// False when site.yaml could not be read as YAML (the problem is logged).
        var siteIsReadable: Bool
        var teachers: YAMLNode?
    }

    static func settings(_ tree: SourceTree, log: DiagnosticLog) -> Settings {
        let errorsBefore = log.entries.count
        let site = tree.siteYAML.flatMap { yaml($0, path: Site.path, log: log) }
        let siteIsReadable = log.entries.count == errorsBefore
        let teachers = tree.teachersYAML.flatMap { yaml($0, path: Teacher.path, log: log) }
        return Settings(site: site, siteIsReadable: siteIsReadable, teachers: teachers)
    }

    /// One Markdown file; its problems come back with it, so the build cache can keep them.
    static func content(_ source: SourceTree.MarkdownFile, bytes: [UInt8]?) -> (ContentFile?, [Diagnostic]) {
        let path = "Content/" + source.contentPath
        guard let bytes else { return (nil, [.error(at: SourceLocation(path: path, line: 1, column: 1), "cannot read the file")]) }
        if let problem = UTF8Check.firstInvalidByte(in: bytes, path: path) { return (nil, [problem]) }
        do throws(Diagnostic) {
            let document = try FrontMatter.split(bytes, path: path)
            let node = try YAMLReader.read(document.frontMatter, path: path, firstLine: document.frontMatterFirstLine)
            return (ContentFile(path: path, contentPath: source.contentPath, frontMatter: node, body: document.body, bodyFirstLine: document.bodyFirstLine), [])
        } catch {
            return (nil, [error])
        }
    }

    private static func yaml(_ bytes: [UInt8], path: String, log: DiagnosticLog) -> YAMLNode? {
        if let problem = UTF8Check.firstInvalidByte(in: bytes, path: path) {
            log.add(problem)
            return nil
        }
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        do throws(Diagnostic) {
            return try YAMLReader.read(body, path: path)
        } catch {
            log.add(error)
            return nil
        }
    }
}

/// Every model of the site, valid.
struct SiteContent: Sendable {
    var teachers: [Teacher] = []
    var articles: [Article] = []
    var assignments: [Assignment] = []
    var pages: [Page] = []
}

/// The **validate** stage: typed models built from the parsed files.
enum Validate {
    static func context(site: Site, teachers: [Teacher], tree: SourceTree) -> ModelContext {
        let contentRoot = tree.root + "/Content"
        let images = ImageLookup(staticFiles: Set(tree.staticFiles)) { path, count in
            guard let handle = FileHandle(forReadingAtPath: contentRoot + "/" + path) else { return nil }
            defer { try? handle.close() }
            do { return try handle.read(upToCount: count).map(Array.init) ?? [] } catch { return nil }
        }
        return ModelContext(site: site, teachers: Dictionary(teachers.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first }), images: images)
    }

    /// Reads, parses and validates `sources` on both cores: each file's model (or none)
    /// with its problems and the hash of its bytes.
    static func models(_ sources: [SourceTree.MarkdownFile], tree: SourceTree, context: ModelContext) -> [BuildCache.ContentEntry] {
        models(sources, reusing: [], tree: tree, context: context).map(\.entry)
    }

    /// `models`, but a source whose bytes are those `reusing` (the cache's entries, by
    /// position) was made from keeps that entry, with its new stamp; `parsed` tells which
    /// were parsed.
    static func models(_ sources: [SourceTree.MarkdownFile], reusing known: [BuildCache.ContentEntry?], tree: SourceTree,
                       context: ModelContext) -> [(entry: BuildCache.ContentEntry, parsed: Bool)] {
        tree.reading(sources) { position, source, bytes -> (entry: BuildCache.ContentEntry, parsed: Bool) in
            let hash = bytes.map(ContentHash.value) ?? 0
            if position < known.count, var entry = known[position], let bytes, entry.hash == hash, entry.stamp.size == bytes.count {
                entry.stamp = source.stamp
                return (entry, false)
            }
            return (model(of: source, bytes: bytes, hash: hash, context: context), true)
        }
    }

    private static func model(of source: SourceTree.MarkdownFile, bytes: [UInt8]?, hash: UInt64, context: ModelContext) -> BuildCache.ContentEntry {
        let (file, problems) = Parse.content(source, bytes: bytes)
        guard let file else { return BuildCache.ContentEntry(stamp: source.stamp, hash: hash, model: .none, diagnostics: problems) }
        let log = DiagnosticLog()
        let model: BuildCache.Model
        switch source.kind {
        case .article: model = (try? Article(file: file, context: context, log: log)).map(BuildCache.Model.article) ?? .none
        case .assignment: model = (try? Assignment(file: file, context: context, log: log)).map(BuildCache.Model.assignment) ?? .none
        case .page: model = (try? Page(file: file, context: context, log: log)).map(BuildCache.Model.page) ?? .none
        }
        return BuildCache.ContentEntry(stamp: source.stamp, hash: hash, model: model, diagnostics: log.entries)
    }

    /// The pieces of HTML of the article of `file`, made again from its source: nil when
    /// the source's bytes no longer hash to `hash`.
    static func articleHTML(of file: SourceTree.MarkdownFile, hash: UInt64?, tree: SourceTree, context: ModelContext) -> [StoredText]? {
        guard let hash, let entry = models([file], tree: tree, context: context).first, entry.hash == hash,
              case (.article(let article), _)? = entry.decoded()
        else { return nil }
        return article.htmlPieces
    }

    static func content(_ models: [BuildCache.Model], teachers: [Teacher]) -> SiteContent {
        var content = SiteContent()
        content.teachers = teachers
        for model in models {
            switch model {
            case .article(let article): content.articles.append(article)
            case .assignment(let assignment): content.assignments.append(assignment)
            case .page(let page): content.pages.append(page)
            case .none: break
            }
        }
        return content
    }
}

extension PageTexts {
    /// The pages of the output of a build from `cache`, the articles made again from the
    /// sources of `tree` when a page is not as written.
    init(output root: String, cache: BuildCache, tree: SourceTree, context: ModelContext) {
        self.init(root: root, pages: cache.pages) { [content = cache.content] source in
            tree.markdownFile(at: source).flatMap { Validate.articleHTML(of: $0, hash: content[$0.contentPath]?.hash, tree: tree, context: context) }
        }
    }
}
