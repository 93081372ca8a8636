import Foundation
import SitegenSupport
import SitegenYAML

/// The **parse** stage: UTF-8 checked, front matter cut from the body, YAML read.
enum Parse {
    struct Result: Sendable {
        var site: YAMLNode?
        /// False when site.yaml could not be read as YAML (the problem is logged).
        var siteIsReadable: Bool
        var teachers: YAMLNode?
        var files: [(kind: SourceTree.Kind, file: ContentFile)]
    }

    static func run(_ tree: SourceTree, log: DiagnosticLog) -> Result {
        let errorsBefore = log.entries.count
        let site = tree.siteYAML.flatMap { yaml($0, path: Site.path, log: log) }
        let siteIsReadable = log.entries.count == errorsBefore
        let teachers = tree.teachersYAML.flatMap { yaml($0, path: Teacher.path, log: log) }
        let outcomes = parallelMap(tree.markdown) { source -> (ContentFile?, [Diagnostic]) in
            let path = "Content/" + source.contentPath
            if let problem = UTF8Check.firstInvalidByte(in: source.bytes, path: path) { return (nil, [problem]) }
            do throws(Diagnostic) {
                let document = try FrontMatter.split(source.bytes, path: path)
                let node = try YAMLReader.read(document.frontMatter, path: path, firstLine: document.frontMatterFirstLine)
                return (ContentFile(path: path, contentPath: source.contentPath, frontMatter: node, body: document.body, bodyFirstLine: document.bodyFirstLine), [])
            } catch {
                return (nil, [error])
            }
        }
        var files: [(SourceTree.Kind, ContentFile)] = []
        for (source, outcome) in zip(tree.markdown, outcomes) {
            outcome.1.forEach(log.add)
            if let file = outcome.0 { files.append((source.kind, file)) }
        }
        return Result(site: site, siteIsReadable: siteIsReadable, teachers: teachers, files: files)
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
    static func run(_ parsed: Parse.Result, site: Site, tree: SourceTree, log: DiagnosticLog) -> SiteContent {
        var content = SiteContent()
        content.teachers = Teacher.all(from: parsed.teachers, site: site, log: log)
        let contentRoot = tree.contentRoot
        let images = ImageLookup(staticFiles: Set(tree.staticFiles)) { path in
            guard let handle = FileHandle(forReadingAtPath: contentRoot + "/" + path) else { return nil }
            defer { try? handle.close() }
            return (try? handle.read(upToCount: ImageSize.headerLength)).map(Array.init)
        }
        let context = ModelContext(site: site, teachers: Dictionary(content.teachers.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first }), images: images)
        if site.homework.grades.isEmpty, let first = parsed.files.first(where: { $0.kind == .assignment }) {
            log.error(at: site.gradesLocation, "'homework.grades' must list the grades that get pages, like [6, 7, 8]: \(first.file.path) and other assignments need them")
        }

        enum Model: Sendable {
            case article(Article), assignment(Assignment), page(Page), none
        }
        let outcomes = parallelMap(parsed.files) { entry -> (Model, [Diagnostic]) in
            let fileLog = DiagnosticLog()
            let model: Model
            switch entry.kind {
            case .article: model = (try? Article(file: entry.file, context: context, log: fileLog)).map(Model.article) ?? .none
            case .assignment: model = (try? Assignment(file: entry.file, context: context, log: fileLog)).map(Model.assignment) ?? .none
            case .page: model = (try? Page(file: entry.file, context: context, log: fileLog)).map(Model.page) ?? .none
            }
            return (model, fileLog.entries)
        }
        for (model, diagnostics) in outcomes {
            diagnostics.forEach(log.add)
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

