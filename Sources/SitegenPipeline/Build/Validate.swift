import Foundation
import SitegenContent
import SitegenFiles
import SitegenSupport

/// Every model of the site, valid.
public struct SiteContent: Sendable {
    public var teachers: [Teacher] = []
    public var articles: [Article] = []
    public var assignments: [Assignment] = []
    public var pages: [Page] = []

    public init(teachers: [Teacher] = [], articles: [Article] = [], assignments: [Assignment] = [], pages: [Page] = []) {
        self.teachers = teachers
        self.articles = articles
        self.assignments = assignments
        self.pages = pages
    }
}

/// A content file's model as the validate stage made it: the model (none when the file's
/// problems leave none), the file's problems, and the hash of the bytes it was made from.
public struct SourceModel: Sendable {
    /// Indirect: models are moved and copied through tables of every source, and an
    /// article inline would make each hundreds of bytes.
    public indirect enum Model: Sendable {
        case article(Article)
        case assignment(Assignment)
        case page(Page)
        case none
    }

    public var model: Model
    public var diagnostics: [Diagnostic]
    public var hash: UInt64

    public init(model: Model, diagnostics: [Diagnostic], hash: UInt64) {
        self.model = model
        self.diagnostics = diagnostics
        self.hash = hash
    }
}

/// A model a build before this one made of a source (`BuildReuse.models`): current when
/// the source's stamp is still the one it was made from; otherwise it stands only when
/// the source's bytes still hash to its hash.
public struct KnownModel: Sendable {
    public var model: SourceModel
    public var isCurrent: Bool

    public init(_ model: SourceModel, isCurrent: Bool) {
        self.model = model
        self.isCurrent = isCurrent
    }
}

/// A source's model as the validate stage has it: made from the source (`parsed`), or a
/// reuse's.
public struct Validated: Sendable {
    public var model: SourceModel
    public var parsed: Bool
}

/// The **validate** stage: typed models built from the parsed files.
public enum Validate {
    public static func context(site: Site, teachers: [Teacher], tree: SourceTree) -> ModelContext {
        let contentRoot = tree.root + "/Content"
        let images = ImageLookup(staticFiles: Set(tree.staticFiles)) { path, count in
            guard let handle = FileHandle(forReadingAtPath: contentRoot + "/" + path) else { return nil }
            defer { try? handle.close() }
            do { return try handle.read(upToCount: count).map(Array.init) ?? [] } catch { return nil }
        } fileSize: { path in
            tree.stamps["Content/" + path]?.size
        }
        return ModelContext(site: site, teachers: Dictionary(teachers.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first }), images: images)
    }

    /// Reads, parses and validates `sources` on both cores: each file's model (or none)
    /// with its problems and the hash of its bytes.
    public static func models(_ sources: [SourceTree.MarkdownFile], tree: SourceTree, context: ModelContext) -> [SourceModel] {
        tree.reading(sources) { _, source, bytes in model(of: source, bytes: bytes, context: context) }
    }

    /// The model of each of the tree's Markdown files: `known`'s (by position, from a
    /// reuse) when it is current, or when its source's bytes still hash to its hash; else
    /// made from the source, on both cores.
    public static func models(of tree: SourceTree, known: [KnownModel?], context: ModelContext) -> [Validated] {
        var results: [Validated?] = tree.markdown.indices.map { index in
            guard index < known.count, let known = known[index], known.isCurrent else { return nil }
            return Validated(model: known.model, parsed: false)
        }
        let unknown = results.indices.filter { results[$0] == nil }
        let made = tree.reading(unknown.map { tree.markdown[$0] }) { position, source, bytes -> Validated in
            let hash = bytes.map(ContentHash.value) ?? 0
            let index = unknown[position]
            if index < known.count, let candidate = known[index]?.model, bytes != nil, candidate.hash == hash { return Validated(model: candidate, parsed: false) }
            return Validated(model: model(of: source, bytes: bytes, hash: hash, context: context), parsed: true)
        }
        for (index, result) in zip(unknown, made) { results[index] = result }
        return results.map { $0! }
    }

    private static func model(of source: SourceTree.MarkdownFile, bytes: [UInt8]?, hash: UInt64? = nil, context: ModelContext) -> SourceModel {
        let hash = hash ?? bytes.map(ContentHash.value) ?? 0
        let (file, problems) = Parse.content(source, bytes: bytes)
        guard let file else { return SourceModel(model: .none, diagnostics: problems, hash: hash) }
        let log = DiagnosticLog()
        let model: SourceModel.Model
        switch source.kind {
        case .article: model = (try? Article(file: file, context: context, log: log)).map(SourceModel.Model.article) ?? .none
        case .assignment: model = (try? Assignment(file: file, context: context, log: log)).map(SourceModel.Model.assignment) ?? .none
        case .page: model = (try? Page(file: file, context: context, log: log)).map(SourceModel.Model.page) ?? .none
        }
        return SourceModel(model: model, diagnostics: log.entries, hash: hash)
    }

    /// The pieces of HTML of the article of `file`, made again from its source: nil when
    /// the source's bytes no longer hash to `hash`.
    public static func articleHTML(of file: SourceTree.MarkdownFile, hash: UInt64?, tree: SourceTree, context: ModelContext) -> [StoredText]? {
        guard let hash, let made = models([file], tree: tree, context: context).first, made.hash == hash,
              case .article(let article) = made.model
        else { return nil }
        return article.htmlPieces
    }

    public static func content(_ models: some Sequence<SourceModel.Model>, teachers: [Teacher]) -> SiteContent {
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
