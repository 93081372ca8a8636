import Foundation
import SitegenPlatform
import SitegenSupport
import Synchronization

/// What a site folder holds, read from disk once: the **load** stage.
public struct SourceTree: Sendable {
    public enum Kind: Sendable {
        case article, assignment, page

        /// What the file at `path` (relative to Content/) is, by its folder, when it is a
        /// Markdown file of one. Compared as bytes: `hasPrefix` compares characters, which
        /// took hundreds of instructions a file.
        public init?(of path: String) {
            let kind = path.utf8.withContiguousStorageIfAvailable { bytes -> Kind? in
                guard bytes.count > 3, bytes[bytes.count - 3] == UInt8(ascii: "."), bytes[bytes.count - 2] == UInt8(ascii: "m"),
                      bytes[bytes.count - 1] == UInt8(ascii: "d") else { return nil }
                func starts(with folder: StaticString) -> Bool {
                    bytes.count > folder.utf8CodeUnitCount && memcmp(bytes.baseAddress!, folder.utf8Start, folder.utf8CodeUnitCount) == 0
                }
                return starts(with: "articles/") ? .article : starts(with: "homework/") ? .assignment : starts(with: "pages/") ? .page : nil
            } ?? Kind(of: String(decoding: Array(path.utf8), as: UTF8.self))
            guard let kind else { return nil }
            self = kind
        }

        public var withArticle: String {
            switch self {
            case .article: "an article"
            case .assignment: "an assignment"
            case .page: "a page"
            }
        }

        /// What the file at `path` was likely meant to be when its name ends almost as a
        /// Markdown file's (`Toast.MD`, `toast.markdown`), which is copied as it is,
        /// front matter and all.
        public init?(nearly path: String) {
            let lowered = path.lowercased()
            let stem = lowered.hasSuffix(".md") ? lowered.dropLast(3) : lowered.hasSuffix(".markdown") ? lowered.dropLast(9) : nil
            guard let stem, let kind = Kind(of: stem + ".md") else { return nil }
            self = kind
        }
    }

    public struct MarkdownFile: Sendable {
        public var kind: Kind
        /// Relative to Content/.
        public var contentPath: String
        public var stamp: FileStamp
    }

    /// The site folder.
    public var root = ""
    public var siteYAML: [UInt8]?
    public var teachersYAML: [UInt8]?
    public var markdown: [MarkdownFile] = []
    /// Files of Content/ published as they are, relative to Content/, sorted.
    public var staticFiles: [String] = []
    /// Every theme folder's files, by theme name and path inside the theme.
    public var themes: [String: [String: [UInt8]]] = [:]
    /// Problems found while reading: unreadable files, links out of the site.
    public var problems: [Diagnostic] = []
    /// The size and time of every file read or listed but the Markdown files (whose
    /// stamps are in `markdown`), by path relative to the site.
    public var stamps: [String: FileStamp] = [:]
    /// The listings of the folders walked, for the next build (see `FolderListings`).
    public var listings = FolderListings()
    /// Stamps from this time on (nanoseconds since 1970) may not tell a later change
    /// (`FolderListings.settledFor(fileSystem:)`, `BuildCache.racyInputs`).
    public var settledBefore = Int64.max

    /// Lists the site and reads its settings and themes; Markdown files are read later,
    /// only those the build cache cannot answer for.
    ///
    /// `known`: the folders' listings of the last build (`FolderListings`); folders that did
    /// not change since are not read again. Listings are kept in `listings` of folders that
    /// last changed before `settledBefore` (nanoseconds since 1970; by default, a moment
    /// before the walk, `FolderListings.settledBefore(for:)`).
    public static func load(siteRoot: URL, known: FolderListings = FolderListings(), settledBefore: Int64? = nil) -> SourceTree {
        let settledBefore = settledBefore ?? FolderListings.settledBefore(for: siteRoot.path)
        var tree = SourceTree()
        tree.root = siteRoot.path
        tree.settledBefore = settledBefore
        let realRoot = siteRoot.resolvingSymlinksInPath().standardizedFileURL.path
        var walker = SourceWalker(realRoot: realRoot, known: known, settledBefore: settledBefore)
        let contentRoot = siteRoot.path + "/Content/"
        func visit(_ path: String, _ stamp: FileStamp) {
            if let kind = Kind(of: path) {
                tree.markdown.append(MarkdownFile(kind: kind, contentPath: path, stamp: stamp))
                return
            }
            tree.stamps["Content/" + path] = stamp
            switch path {
            case "site.yaml":
                tree.siteYAML = tree.read(contentRoot + path, display: "Content/" + path)
            case "teachers.yaml":
                tree.teachersYAML = tree.read(contentRoot + path, display: "Content/" + path)
            default:
                if let kind = Kind(nearly: path) {
                    tree.problems.append(.warning(at: SourceLocation(path: "Content/" + path, line: 1, column: 1),
                                                  "copied as it is, not read as \(kind.withArticle): only a name ending in '.md' is"))
                }
                tree.staticFiles.append(path)
            }
        }
        walker.files(in: siteRoot.path + "/Content", display: "Content/") { visit($0, $1) }
        // Hidden files and folders are not published (.git, .DS_Store), but for the one
        // folder the web gives a meaning (RFC 8615: security.txt, app associations).
        walker.files(in: contentRoot + SourceTree.wellKnown, display: "Content/\(SourceTree.wellKnown)/") { path, stamp in
            visit(SourceTree.wellKnown + "/" + path, stamp)
        }
        tree.staticFiles.sort()

        let themesFolder = siteRoot.path + "/Themes"
        for name in walker.folders(in: themesFolder) {
            var files: [String: [UInt8]] = [:]
            walker.files(in: themesFolder + "/" + name, display: "Themes/\(name)/") { path, stamp in
                tree.stamps["Themes/\(name)/\(path)"] = stamp
                if let bytes = tree.read(themesFolder + "/" + name + "/" + path, display: "Themes/\(name)/\(path)") { files[path] = bytes }
            }
            tree.themes[name] = files
        }
        tree.problems += walker.problems
        tree.listings = walker.listed
        return tree
    }

    /// The tree with the settings and theme files at `paths` (relative to the site) read
    /// again: `Content/site.yaml`, `Content/teachers.yaml` and the files of the theme
    /// folders it has, each changed, made or deleted. Nil when one is anything else (a
    /// folder, a hidden file, a new theme) or cannot be read: a walk tells those.
    public func updating(settingsAndThemeFiles paths: [String]) -> SourceTree? {
        var tree = self
        for path in paths {
            let file = root + "/" + path
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: file, isDirectory: &isFolder), isFolder.boolValue { return nil }
            let stamp = FileStamp.of(file)
            let bytes = stamp == nil ? nil : FileReader.read(file)
            guard stamp == nil || bytes != nil else { return nil }
            switch path {
            case "Content/site.yaml": tree.siteYAML = bytes
            case "Content/teachers.yaml": tree.teachersYAML = bytes
            default:
                let parts = path.split(separator: "/", omittingEmptySubsequences: false)
                guard parts.count > 2, parts[0] == "Themes", tree.themes[String(parts[1])] != nil,
                      !parts.contains(where: { $0.isEmpty || $0.hasPrefix(".") }) else { return nil }
                tree.themes[String(parts[1])]![parts.dropFirst(2).joined(separator: "/")] = bytes
            }
            tree.stamps[path] = stamp
        }
        return tree
    }

    /// The hidden folder of Content/ that is published.
    public static let wellKnown = ".well-known"

    /// The stamp the walk found of the file at `path` (relative to the site).
    public func stamp(of path: String) -> FileStamp? {
        stamps[path] ?? markdownFile(at: path)?.stamp
    }

    /// The Markdown file the walk found at `path` (relative to the site: `Content/…`).
    public func markdownFile(at path: String) -> MarkdownFile? {
        guard path.hasPrefix("Content/") else { return nil }
        let contentPath = String(path.dropFirst("Content/".count))
        // The tree lists its Markdown files in the order of their paths.
        let place = markdown.partitioningIndex { $0.contentPath >= contentPath }
        return place < markdown.count && markdown[place].contentPath == contentPath ? markdown[place] : nil
    }

    /// The bytes of the file at `path` (relative to the site): as the walk read them for
    /// the settings and the theme files, else read now.
    public func bytes(of path: String) -> [UInt8]? {
        switch path {
        case "Content/site.yaml": return siteYAML
        case "Content/teachers.yaml": return teachersYAML
        default: break
        }
        if path.hasPrefix("Themes/") {
            let inThemes = path.dropFirst("Themes/".count)
            if let slash = inThemes.firstIndex(of: "/"), let bytes = themes[String(inThemes[..<slash])]?[String(inThemes[inThemes.index(after: slash)...])] {
                return bytes
            }
        }
        return FileReader.read(root + "/" + path)
    }

    private mutating func read(_ path: String, display: String) -> [UInt8]? {
        guard let bytes = FileReader.read(path) else {
            problems.append(.error(at: SourceLocation(path: display, line: 1, column: 1), "cannot read the file"))
            return nil
        }
        return bytes
    }

    /// Reads Markdown files on both cores and hands each to `body` with its position as it
    /// is read (nil for a file that cannot be read), keeping the results in the files'
    /// order. A file's bytes are let go once `body` is done with them, rather than every
    /// source held through validation. Each file is opened by its name in its folder,
    /// opened once: the kernel looks up one name per file instead of every folder of its
    /// path. A file found not to be in memory has the kernel read the next ones as well
    /// (`ReadAhead`).
    public func reading<Result: Sendable>(_ files: [MarkdownFile], _ body: @Sendable (Int, MarkdownFile, [UInt8]?) -> Result) -> [Result] {
        let contentRoot = root + "/Content/"
        var folders: [Substring: Int32] = [:]
        let places = files.map { file -> (folder: Int32, name: Substring) in
            let path = file.contentPath
            let slash = path.utf8.lastIndex(of: UInt8(ascii: "/"))
            let folder = slash.map { path[..<$0] } ?? ""
            let name = slash.map { path[path.utf8.index(after: $0)...] } ?? path[...]
            if folders[folder] == nil { folders[folder] = open(contentRoot + folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
            return (folders[folder]!, name)
        }
        defer { for descriptor in folders.values where descriptor >= 0 { close(descriptor) } }
        let ahead = ReadAhead(places)
        return parallelMap(Array(files.indices)) { index in
            let (file, place) = (files[index], places[index])
            guard place.folder >= 0 else { return body(index, file, FileReader.read(contentRoot + file.contentPath)) }
            return body(index, file, FileReader.read(String(place.name), in: place.folder, size: file.stamp.size, notInMemory: { ahead.ask(after: index) }))
        }
    }
}

extension SourceTree {
    public var contentRoot: String { root + "/Content" }
}
