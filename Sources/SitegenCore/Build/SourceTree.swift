import Foundation
import SitegenSupport

/// What a site folder holds, read from disk once: the **load** stage.
struct SourceTree: Sendable {
    enum Kind: Sendable {
        case article, assignment, page
    }

    struct MarkdownFile: Sendable {
        var kind: Kind
        /// Relative to Content/.
        var contentPath: String
        var bytes: [UInt8]
    }

    /// The site folder.
    var root = ""
    var siteYAML: [UInt8]?
    var teachersYAML: [UInt8]?
    var markdown: [MarkdownFile] = []
    /// Files of Content/ published as they are, relative to Content/, sorted.
    var staticFiles: [String] = []
    /// Every theme folder's files, by theme name and path inside the theme.
    var themes: [String: [String: [UInt8]]] = [:]
    /// Problems found while reading: unreadable files, links out of the site.
    var problems: [Diagnostic] = []

    static func load(siteRoot: URL) -> SourceTree {
        var tree = SourceTree()
        tree.root = siteRoot.path
        let content = siteRoot.appendingPathComponent("Content")
        let realRoot = siteRoot.resolvingSymlinksInPath().standardizedFileURL.path
        for (path, url) in walk(content, relativeTo: "", displayRoot: "Content/", realRoot: realRoot, problems: &tree.problems) {
            let sitePath = "Content/" + path
            switch path {
            case "site.yaml":
                tree.siteYAML = read(url, sitePath, &tree.problems)
            case "teachers.yaml":
                tree.teachersYAML = read(url, sitePath, &tree.problems)
            default:
                let kind: Kind? = if path.hasSuffix(".md") {
                    path.hasPrefix("articles/") ? .article : path.hasPrefix("homework/") ? .assignment : path.hasPrefix("pages/") ? .page : nil
                } else { nil }
                if let kind {
                    if let bytes = read(url, sitePath, &tree.problems) {
                        tree.markdown.append(MarkdownFile(kind: kind, contentPath: path, bytes: bytes))
                    }
                } else {
                    tree.staticFiles.append(path)
                }
            }
        }
        tree.staticFiles.sort()
        tree.markdown.sort { $0.contentPath < $1.contentPath }
        let themes = siteRoot.appendingPathComponent("Themes")
        if let names = try? FileManager.default.contentsOfDirectory(atPath: themes.path) {
            for name in names.sorted() where !name.hasPrefix(".") {
                var isFolder: ObjCBool = false
                guard FileManager.default.fileExists(atPath: themes.appendingPathComponent(name).path, isDirectory: &isFolder), isFolder.boolValue else { continue }
                var files: [String: [UInt8]] = [:]
                for (path, url) in walk(themes.appendingPathComponent(name), relativeTo: "", displayRoot: "Themes/\(name)/", realRoot: realRoot, problems: &tree.problems) {
                    if let bytes = read(url, "Themes/\(name)/\(path)", &tree.problems) { files[path] = bytes }
                }
                tree.themes[name] = files
            }
        }
        return tree
    }

    private static func read(_ url: URL, _ sitePath: String, _ problems: inout [Diagnostic]) -> [UInt8]? {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            problems.append(.error(at: SourceLocation(path: sitePath, line: 1, column: 1), "cannot read the file"))
            return nil
        }
        return Array(data)
    }

    /// Every regular file under `folder`, skipping hidden ones and anything that is not a
    /// plain file or folder (a FIFO would hang the build), never following a symbolic
    /// link to a place outside the site or around in a circle.
    private static func walk(_ folder: URL, relativeTo prefix: String, displayRoot: String, realRoot: String, problems: inout [Diagnostic], visited: Set<String> = []) -> [(String, URL)] {
        let realFolder = folder.resolvingSymlinksInPath().standardizedFileURL.path
        guard !visited.contains(realFolder), let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return [] }
        let visited = visited.union([realFolder])
        var files: [(String, URL)] = []
        for name in names.sorted() where !name.hasPrefix(".") {
            let url = folder.appendingPathComponent(name)
            let path = prefix + name
            let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
            var type = attributes?[.type] as? FileAttributeType
            if type == .typeSymbolicLink {
                let target = url.resolvingSymlinksInPath().standardizedFileURL.path
                guard target == realRoot || target.hasPrefix(realRoot + "/") else {
                    problems.append(.error(at: SourceLocation(path: displayRoot + path, line: 1, column: 1),
                                           "symbolic link leads outside the site (to \(target)); sitegen does not follow it"))
                    continue
                }
                type = (try? FileManager.default.attributesOfItem(atPath: target))?[.type] as? FileAttributeType
            }
            switch type {
            case .typeDirectory?:
                files += walk(url, relativeTo: path + "/", displayRoot: displayRoot, realRoot: realRoot, problems: &problems, visited: visited)
            case .typeRegular?:
                files.append((path, url))
            default:
                problems.append(.warning(at: SourceLocation(path: displayRoot + path, line: 1, column: 1), "not a regular file or folder; sitegen skips it"))
            }
        }
        return files
    }
}
