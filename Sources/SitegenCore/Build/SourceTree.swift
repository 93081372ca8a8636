import Foundation
import SitegenSupport

#if canImport(Glibc)
import Glibc
#endif

/// What a site folder holds, read from disk once: the **load** stage.
struct SourceTree: Sendable {
    enum Kind: Sendable {
        case article, assignment, page
    }

    struct MarkdownFile: Sendable {
        var kind: Kind
        /// Relative to Content/.
        var contentPath: String
        var stamp: FileStamp
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
    /// The size and time of every file read or listed but the Markdown files (whose
    /// stamps are in `markdown`), by path relative to the site.
    var stamps: [String: FileStamp] = [:]

    /// Lists the site and reads its settings and themes; Markdown files are read later,
    /// only those the build cache cannot answer for.
    static func load(siteRoot: URL) -> SourceTree {
        var tree = SourceTree()
        tree.root = siteRoot.path
        let realRoot = siteRoot.resolvingSymlinksInPath().standardizedFileURL.path
        var walker = Walker(realRoot: realRoot)
        let contentRoot = siteRoot.path + "/Content/"
        let contentFiles = walker.files(in: siteRoot.path + "/Content", display: "Content/")
        tree.markdown.reserveCapacity(contentFiles.count)
        for (path, stamp) in contentFiles {
            let kind: Kind? = if path.hasSuffix(".md") {
                path.hasPrefix("articles/") ? .article : path.hasPrefix("homework/") ? .assignment : path.hasPrefix("pages/") ? .page : nil
            } else { nil }
            if let kind {
                tree.markdown.append(MarkdownFile(kind: kind, contentPath: path, stamp: stamp))
                continue
            }
            tree.stamps["Content/" + path] = stamp
            switch path {
            case "site.yaml":
                tree.siteYAML = tree.read(contentRoot + path, display: "Content/" + path)
            case "teachers.yaml":
                tree.teachersYAML = tree.read(contentRoot + path, display: "Content/" + path)
            default:
                tree.staticFiles.append(path)
            }
        }
        tree.staticFiles.sort()

        let themesFolder = siteRoot.path + "/Themes"
        for name in walker.folders(in: themesFolder) {
            var files: [String: [UInt8]] = [:]
            for (path, stamp) in walker.files(in: themesFolder + "/" + name, display: "Themes/\(name)/") {
                tree.stamps["Themes/\(name)/\(path)"] = stamp
                if let bytes = tree.read(themesFolder + "/" + name + "/" + path, display: "Themes/\(name)/\(path)") { files[path] = bytes }
            }
            tree.themes[name] = files
        }
        tree.problems += walker.problems
        return tree
    }

    private mutating func read(_ path: String, display: String) -> [UInt8]? {
        guard let bytes = FileReader.read(path) else {
            problems.append(.error(at: SourceLocation(path: display, line: 1, column: 1), "cannot read the file"))
            return nil
        }
        return bytes
    }

    /// Reads Markdown files on both cores; nil for a file that cannot be read. Each is opened
    /// by its name in its folder, opened once: the kernel looks up one name per file instead
    /// of every folder of its path (a site's 60,000 files made 400,000 lookups).
    func read(_ files: [MarkdownFile]) -> [[UInt8]?] {
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
        return parallelMap(Array(zip(files, places))) { file, place in
            place.folder >= 0 ? FileReader.read(String(place.name), in: place.folder) : FileReader.read(contentRoot + file.contentPath)
        }
    }
}

/// Lists a folder's files with `readdir`, skipping hidden ones and anything that is not a
/// plain file or folder (a FIFO would hang the build), never following a symbolic link to
/// a place outside the site or around in a circle.
private struct Walker {
    let realRoot: String
    var problems: [Diagnostic] = []

    init(realRoot: String) {
        self.realRoot = realRoot
    }

    private enum EntryType { case file, folder, other, missing }

    mutating func files(in folder: String, display: String) -> [(String, FileStamp)] {
        var found: [(String, FileStamp)] = []
        walk(folder, relative: "", display: display, visited: [], into: &found)
        return found.sortedByPath { $0.0 }
    }

    mutating func folders(in folder: String) -> [String] {
        entries(of: folder).filter { type(of: folder + "/" + $0.name, hint: $0.type) == .folder }.map(\.name).sorted()
    }

    private mutating func walk(_ folder: String, relative: String, display: String, visited: Set<String>, into found: inout [(String, FileStamp)]) {
        let real = realPath(folder) ?? folder
        guard !visited.contains(real), let directory = opendir(folder) else { return }
        defer { closedir(directory) }
        let visited = visited.union([real])
        var files: [(name: String, relative: String)] = []
        for entry in entries(of: directory) {
            let relativePath = String(joining: relative, entry.name)
            var hint = entry.type
            if hint == DT_REG {
                files.append((entry.name, relativePath))
                continue
            }
            let path = folder + "/" + entry.name
            if hint == DT_LNK {
                let target = realPath(path) ?? ""
                guard target == realRoot || target.hasPrefix(realRoot + "/") else {
                    problems.append(.error(at: SourceLocation(path: display + relativePath, line: 1, column: 1),
                                           "symbolic link leads outside the site (to \(target.isEmpty ? "nowhere" : target)); sitegen does not follow it"))
                    continue
                }
                hint = UInt8(DT_UNKNOWN)
            }
            switch type(of: path, hint: hint) {
            case .folder:
                walk(path, relative: relativePath + "/", display: display, visited: visited, into: &found)
            case .file:
                files.append((entry.name, relativePath))
            case .other:
                problems.append(.warning(at: SourceLocation(path: display + relativePath, line: 1, column: 1), "not a regular file or folder; sitegen skips it"))
            case .missing:
                continue
            }
        }
        // Files are stat'ed by name in their open folder: a path from the root made the
        // kernel look up every folder on the way again, for each of 60,000 files. A
        // homework folder may hold tens of thousands of them: they go on both cores.
        let descriptor = dirfd(directory)
        let stamps = files.count > 256 ? parallelMap(files) { FileStamp.of($0.name, in: descriptor) } : files.map { FileStamp.of($0.name, in: descriptor) }
        for (file, stamp) in zip(files, stamps) {
            if let stamp { found.append((file.relative, stamp)) }
        }
    }

    private func entries(of folder: String) -> [(name: String, type: UInt8)] {
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        return entries(of: directory)
    }

    /// The entries of a folder but hidden ones (and "." and "..").
    private func entries(of directory: OpaquePointer) -> [(name: String, type: UInt8)] {
        var result: [(String, UInt8)] = []
        while let entry = readdir(directory) {
            let name: String? = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                raw.first == UInt8(ascii: ".") ? nil : String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
            }
            if let name { result.append((name, entry.pointee.d_type)) }
        }
        return result
    }

    /// The type of `path`, following links; `hint` is readdir's answer when it knows.
    private func type(of path: String, hint: UInt8) -> EntryType {
        switch Int32(hint) {
        case Int32(DT_DIR): return .folder
        case Int32(DT_REG): return .file
        case Int32(DT_UNKNOWN), Int32(DT_LNK):
            var info = stat()
            guard stat(path, &info) == 0 else { return .missing }
            switch info.st_mode & S_IFMT {
            case S_IFDIR: return .folder
            case S_IFREG: return .file
            default: return .other
            }
        default:
            return .other
        }
    }

    private func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}

extension String {
    /// `first + second`, made in one allocation: the general `+` took hundreds of
    /// instructions for each of the 60,000 paths of a large site, several times over.
    init(joining first: String, _ second: String) {
        var first = first
        var second = second
        self = first.withUTF8 { a in
            second.withUTF8 { b in
                String(unsafeUninitializedCapacity: a.count + b.count) { buffer in
                    if let start = buffer.baseAddress {
                        if let from = a.baseAddress { UnsafeMutableRawPointer(start).copyMemory(from: from, byteCount: a.count) }
                        if let from = b.baseAddress { UnsafeMutableRawPointer(start + a.count).copyMemory(from: from, byteCount: b.count) }
                    }
                    return a.count + b.count
                }
            }
        }
    }
}

extension Array {
    /// Sorted as `String`'s `<` sorts the paths. Paths of ASCII bytes (but NUL) are
    /// sorted by libc as zero-padded records of their bytes and their place in the list:
    /// a sort of 60,000 paths as strings was a fifth of the instructions of a rebuild
    /// with nothing changed. Elements with the same path come in no particular order.
    func sortedByPath(_ path: (Element) -> String) -> [Element] {
        guard count > 1 else { return self }
        var longest = 0
        for element in self {
            var text = path(element)
            let fits = text.withUTF8 { bytes in
                longest = Swift.max(longest, bytes.count)
                return bytes.isASCIIWithoutNUL
            }
            guard fits, longest <= 1024 else { return sorted { path($0) < path($1) } }
        }
        let size = (longest + 1 + 7) / 8 * 8 + 8
        var records = [UInt8](repeating: 0, count: count * size)
        records.withUnsafeMutableBytes { records in
            for (index, element) in enumerated() {
                let record = records.baseAddress! + index * size
                var text = path(element)
                text.withUTF8 { bytes in
                    if let base = bytes.baseAddress { record.copyMemory(from: base, byteCount: bytes.count) }
                }
                record.storeBytes(of: Int64(index), toByteOffset: size - 8, as: Int64.self)
            }
            qsort(records.baseAddress!, count, size) { a, b in
                strcmp(a!.assumingMemoryBound(to: CChar.self), b!.assumingMemoryBound(to: CChar.self))
            }
        }
        return records.withUnsafeBytes { records in
            (0..<count).map { self[Int(records.load(fromByteOffset: $0 * size + size - 8, as: Int64.self))] }
        }
    }
}

extension UnsafeBufferPointer<UInt8> {
    /// Whether every byte is ASCII and none is NUL, looked at eight at a time.
    var isASCIIWithoutNUL: Bool {
        guard let base = baseAddress else { return true }
        var index = 0
        while index + 8 <= count {
            if UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { return false }
            index += 8
        }
        while index < count {
            if base[index] >= 0x80 { return false }
            index += 1
        }
        return memchr(base, 0, count) == nil
    }
}

/// Reads a whole file with one `read` call when it can.
enum FileReader {
    static func read(_ path: String) -> [UInt8]? {
        read(opening: open(path, O_RDONLY | O_CLOEXEC))
    }

    /// The file `name` of the open folder `folder`.
    static func read(_ name: String, in folder: Int32) -> [UInt8]? {
        read(opening: openat(folder, name, O_RDONLY | O_CLOEXEC))
    }

    private static func read(opening descriptor: Int32) -> [UInt8]? {
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        // One byte more than the file has: a read that fills it tells a file that grew
        // while being read, without a second buffer for every file.
        let expected = Int(info.st_size)
        var filled = 0
        var bytes = [UInt8](unsafeUninitializedCapacity: expected + 1) { buffer, count in
            while filled < buffer.count {
                let result = Glibc.read(descriptor, buffer.baseAddress! + filled, buffer.count - filled)
                if result < 0, errno == EINTR { continue }
                guard result > 0 else { break }
                filled += result
            }
            count = filled
        }
        guard filled > expected else { return bytes }
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress!, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += chunk[0..<count]
        }
        return bytes
    }
}

extension SourceTree {
    var contentRoot: String { root + "/Content" }
}
