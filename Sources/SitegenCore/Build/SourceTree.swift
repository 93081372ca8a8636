import Foundation
import SitegenPlatform
import SitegenSupport
import Synchronization

/// What a site folder holds, read from disk once: the **load** stage.
struct SourceTree: Sendable {
    enum Kind: Sendable {
        case article, assignment, page

        /// What the file at `path` (relative to Content/) is, by its folder, when it is a
        /// Markdown file of one. Compared as bytes: `hasPrefix` compares characters, which
        /// took hundreds of instructions a file.
        init?(of path: String) {
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

        var withArticle: String {
            switch self {
            case .article: "an article"
            case .assignment: "an assignment"
            case .page: "a page"
            }
        }

        /// What the file at `path` was likely meant to be when its name ends almost as a
        /// Markdown file's (`Toast.MD`, `toast.markdown`), which is copied as it is,
        /// front matter and all.
        init?(nearly path: String) {
            let lowered = path.lowercased()
            let stem = lowered.hasSuffix(".md") ? lowered.dropLast(3) : lowered.hasSuffix(".markdown") ? lowered.dropLast(9) : nil
            guard let stem, let kind = Kind(of: stem + ".md") else { return nil }
            self = kind
        }
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
    /// The listings of the folders walked, for the next build (see `FolderListings`).
    var listings = FolderListings()
    /// Stamps from this time on (nanoseconds since 1970) may not tell a later change
    /// (`FolderListings.settledFor(fileSystem:)`, `BuildCache.racyInputs`).
    var settledBefore = Int64.max

    /// Lists the site and reads its settings and themes; Markdown files are read later,
    /// only those the build cache cannot answer for.
    ///
    /// `known`: the folders' listings of the last build (`FolderListings`); folders that did
    /// not change since are not read again. Listings are kept in `listings` of folders that
    /// last changed before `settledBefore` (nanoseconds since 1970; by default, a moment
    /// before the walk, `FolderListings.settledBefore(for:)`).
    static func load(siteRoot: URL, known: FolderListings = FolderListings(), settledBefore: Int64? = nil) -> SourceTree {
        let settledBefore = settledBefore ?? FolderListings.settledBefore(for: siteRoot.path)
        var tree = SourceTree()
        tree.root = siteRoot.path
        tree.settledBefore = settledBefore
        let realRoot = siteRoot.resolvingSymlinksInPath().standardizedFileURL.path
        var walker = Walker(realRoot: realRoot, known: known, settledBefore: settledBefore)
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

    /// The hidden folder of Content/ that is published.
    static let wellKnown = ".well-known"

    /// The stamp the walk found of the file at `path` (relative to the site).
    func stamp(of path: String) -> FileStamp? {
        stamps[path] ?? markdownFile(at: path)?.stamp
    }

    /// The Markdown file the walk found at `path` (relative to the site: `Content/…`).
    func markdownFile(at path: String) -> MarkdownFile? {
        guard path.hasPrefix("Content/") else { return nil }
        let contentPath = String(path.dropFirst("Content/".count))
        // The tree lists its Markdown files in the order of their paths.
        let place = markdown.partitioningIndex { $0.contentPath >= contentPath }
        return place < markdown.count && markdown[place].contentPath == contentPath ? markdown[place] : nil
    }

    /// The bytes of the file at `path` (relative to the site): as the walk read them for
    /// the settings and the theme files, else read now.
    func bytes(of path: String) -> [UInt8]? {
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
    /// order. A file's bytes are let go once `body` is done with them: read all first, the
    /// 70 MB of 10,000 articles were held through validation, every page of it new to the
    /// process. Each file is opened by its name in its folder, opened once: the kernel
    /// looks up one name per file instead of every folder of its path (a site's 60,000
    /// files made 400,000 lookups). A file found not to be in memory has the kernel read
    /// the next ones as well (`ReadAhead`).
    func reading<Result: Sendable>(_ files: [MarkdownFile], _ body: @Sendable (Int, MarkdownFile, [UInt8]?) -> Result) -> [Result] {
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

/// Has the kernel read the sources that follow one found not to be in memory, so that
/// their reads wait for the disk together instead of one after another. Sources read
/// moments ago can be out of memory: this kind of machine hands memory not used for a
/// minute back to its host, files' pages too (DAMON), and each source it dropped cost a
/// core 1–2 ms of waiting for the disk: 10,000 articles built 12 s after the build before
/// took 1.92 s, 1.65 s with this. A site whose sources are all in memory never gets here.
///
/// How many are asked for depends on how the dropped ones lie: after a Hugo build of the
/// same corpus, a few dozen sources of 10,000 were out of memory here and there, and asking
/// for the 128 after each opened some 8,000 sources in memory for nothing (3.3 µs each). A
/// source out of memory alone is followed by a few asked for; one found near the last asked
/// for (sources out of memory one after the other) doubles that, up to `widest`.
final class ReadAhead: Sendable {
    /// How many sources after one not in memory the kernel is asked for, at first and at
    /// most.
    static let narrowest = 8
    static let widest = 128

    private let places: [(folder: Int32, name: Substring)]
    /// Sources before this position have been asked for.
    private let asked = Atomic<Int>(0)
    /// How many sources the last ask was for.
    private let window = Atomic<Int>(ReadAhead.narrowest)

    init(_ places: [(folder: Int32, name: Substring)]) {
        self.places = places
    }

    /// Sources before this position have been asked for (or were never to be).
    var askedBefore: Int { asked.load(ordering: .relaxed) }

    /// Asks for the sources after the one at `position` not asked for yet; the cores that
    /// find sources out of memory at once split the asking.
    func ask(after position: Int) {
        var start = asked.load(ordering: .relaxed)
        var end: Int
        while true {
            let last = window.load(ordering: .relaxed)
            let size = position < start + last ? min(last * 2, ReadAhead.widest) : ReadAhead.narrowest
            end = min(places.count, position + 1 + size)
            guard start < end else { return }
            let (exchanged, original) = asked.compareExchange(expected: start, desired: end, ordering: .relaxed)
            if exchanged {
                window.store(size, ordering: .relaxed)
                break
            }
            start = original
        }
        for next in max(start, position + 1)..<end where places[next].folder >= 0 {
            let descriptor = openat(places[next].folder, String(places[next].name), O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { continue }
            KernelFiles.willNeed(descriptor)
            close(descriptor)
        }
    }
}

/// Lists a folder's files with `readdir`, skipping hidden ones and anything that is not a
/// plain file or folder (a FIFO would hang the build), never following a symbolic link to
/// a place outside the site or around in a circle.
private struct Walker {
    let realRoot: String
    let known: FolderListings
    let settledBefore: Int64
    /// This walk's listings: those of `known` for folders that did not change, the others
    /// as read, of folders that changed before `settledBefore` and hold only plain files
    /// and folders (a link's target can change without its folder changing).
    var listed = FolderListings()
    var problems: [Diagnostic] = []

    init(realRoot: String, known: FolderListings, settledBefore: Int64) {
        self.realRoot = realRoot
        self.known = known
        self.settledBefore = settledBefore
    }

    enum EntryType { case file, folder, other, missing }

    /// Calls `each` with every file below `folder`, by its path relative to it, and its
    /// stamp, in the order of `String`'s `<` on those paths.
    mutating func files(in folder: String, display: String, each: (consuming String, FileStamp) -> Void) {
        walk(folder, relative: "", display: display, visited: [], each: each)
    }

    mutating func folders(in folder: String) -> [String] {
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        let listing = Listing(directory)
        return listing.entries.indices.compactMap { index in
            let name = listing.name(index)
            return type(of: folder + "/" + name, hint: listing.entries[index].type) == .folder ? name : nil
        }.sorted()
    }

    /// Each folder's entries are sorted on their own, a folder's name as if it ended with
    /// "/": that is the order of the whole paths, and the files come out in it.
    private mutating func walk(_ folder: String, relative: String, display: String, visited: Set<String>, each: (consuming String, FileStamp) -> Void) {
        let real = realPath(folder) ?? folder
        guard !visited.contains(real) else { return }
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        var info = stat()
        let stamp = fstat(descriptor, &info) == 0 ? FolderListings.Stamp(info) : nil
        let visited = visited.union([real])
        if let stamp, let same = known.folders[folder], same.stamp == stamp, let listing = Listing(same) {
            defer { close(descriptor) }
            let files = listing.fileIndices
            listed.folders[folder] = same
            visit(listing, in: Array(listing.entries.indices), files: files, looked: listing.files(files, in: descriptor, under: relative),
                  folder: folder, relative: relative, display: display, visited: visited, each: each)
            return
        }
        guard let directory = fdopendir(descriptor) else {
            close(descriptor)
            return
        }
        defer { closedir(directory) }
        var listing = Listing(directory)
        resolveKinds(&listing, folder: folder, relative: relative, display: display)
        let keepable = listing.entries.allSatisfy { ($0.type == DT_REG && $0.kind == .file) || ($0.type == DT_DIR && $0.kind == .folder) }
        // The same names as the last build found, in a folder whose time changed: a file
        // replaced by a rename, as many editors save one. They are taken in the order kept,
        // not sorted again (the 10,000 articles' folder: 12 M instructions, 6 ms of a
        // title edited with `sed -i`).
        if let stamp, keepable, let same = known.folders[folder], listing.names(areTheSameAs: same), let kept = Listing(same) {
            let files = kept.fileIndices
            if stamp.modified < settledBefore, stamp.changed < settledBefore {
                listed.folders[folder] = FolderListings.Folder(stamp: stamp, names: same.names, isFolder: same.isFolder)
            }
            visit(kept, in: Array(kept.entries.indices), files: files, looked: kept.files(files, in: descriptor, under: relative),
                  folder: folder, relative: relative, display: display, visited: visited, each: each)
            return
        }
        let files = listing.fileIndices
        // A large folder is put in order on another core while its files are looked up.
        let sorting = files.count > Listing.run ? Concurrently { [listing] in listing.sortedOrder() } : nil
        let looked = listing.files(files, in: descriptor, under: relative)
        let order = sorting?.wait() ?? listing.sortedOrder()
        if let stamp, stamp.modified < settledBefore, stamp.changed < settledBefore, keepable {
            listed.folders[folder] = listing.kept(in: order, stamp: stamp)
        }
        visit(listing, in: order, files: files, looked: looked, folder: folder, relative: relative, display: display, visited: visited, each: each)
    }

    /// The kind of every entry readdir did not tell, following links that stay in the site.
    private mutating func resolveKinds(_ listing: inout Listing, folder: String, relative: String, display: String) {
        for index in listing.entries.indices {
            var hint = listing.entries[index].type
            if hint == DT_REG {
                listing.entries[index].kind = .file
                continue
            }
            let name = listing.name(index)
            let path = folder + "/" + name
            if hint == DT_LNK {
                let target = realPath(path) ?? ""
                guard target == realRoot || target.hasPrefix(realRoot + "/") else {
                    problems.append(.error(at: SourceLocation(path: display + relative + name, line: 1, column: 1),
                                           "symbolic link leads outside the site (to \(target.isEmpty ? "nowhere" : target)); sitegen does not follow it"))
                    continue
                }
                hint = UInt8(DT_UNKNOWN)
            }
            let kind = type(of: path, hint: hint)
            listing.entries[index].kind = kind
            if kind == .other {
                problems.append(.warning(at: SourceLocation(path: display + relative + name, line: 1, column: 1), "not a regular file or folder; sitegen skips it"))
            }
        }
    }

    /// Calls `each` with the files of `listing` (`looked`: the paths and stamps of the
    /// entries at `files`) and walks its folders, all in `order`.
    private mutating func visit(_ listing: Listing, in order: [Int], files: [Int], looked: consuming [(String, FileStamp)?], folder: String, relative: String,
                                display: String, visited: Set<String>, each: (consuming String, FileStamp) -> Void) {
        var looked = looked
        var position = [Int](repeating: 0, count: listing.entries.count)
        for (place, index) in files.enumerated() { position[index] = place }
        // Each path is moved out of `looked` rather than copied: a copy and the release of
        // the original touched the count of every string once more, made on another core.
        looked.withUnsafeMutableBufferPointer { looked in
            for index in order {
                switch listing.entries[index].kind {
                case .folder:
                    let name = listing.name(index)
                    walk(folder + "/" + name, relative: relative + name + "/", display: display, visited: visited, each: each)
                case .file:
                    let slot = looked.baseAddress! + position[index]
                    if let (path, stamp) = slot.move() { each(path, stamp) }
                    slot.initialize(to: nil)
                case .other, .missing:
                    continue
                }
            }
        }
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

/// One folder's entries but hidden ones (and "." and ".."), their names in one buffer: a
/// homework folder of 50,000 files made 50,000 strings to sort, and sorting them as
/// strings took longer than the kernel took to look the files up.
private struct Listing: Sendable {
    struct Entry {
        /// Where the name is in `names`, and its length (without the NUL after it).
        var start: Int
        var count: Int
        /// readdir's type.
        var type: UInt8
        var kind = Walker.EntryType.missing
    }

    /// The names, each followed by a NUL for the system calls.
    var names: [UInt8] = []
    var entries: [Entry] = []
    private var isASCII = true

    init(_ directory: OpaquePointer) {
        let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
        while let entry = readdir(directory) {
            let name = (UnsafeRawPointer(entry) + nameOffset).assumingMemoryBound(to: UInt8.self)
            guard name.pointee != UInt8(ascii: ".") else { continue }
            let count = strlen(name)
            let bytes = UnsafeBufferPointer(start: name, count: count + 1)
            entries.append(Entry(start: names.count, count: count, type: entry.pointee.d_type))
            names.append(contentsOf: bytes)
            if isASCII { isASCII = UnsafeBufferPointer(start: name, count: count).isASCII }
        }
    }

    /// The names of a folder as `FolderListings` kept them, in the order they were kept;
    /// nil unless they are as many as the kinds kept with them.
    init?(_ kept: FolderListings.Folder) {
        names = kept.names
        var entries: [Entry] = []
        entries.reserveCapacity(kept.isFolder.count)
        let split = Listing.split(kept) { start, count, isFolder in
            entries.append(Entry(start: start, count: count, type: UInt8(isFolder ? DT_DIR : DT_REG), kind: isFolder ? .folder : .file))
        }
        guard split else { return nil }
        self.entries = entries
    }

    /// Calls `each` with where each name of `kept` starts in its bytes, its length and
    /// whether it is a folder; false when the names are not as many as the kinds, or one
    /// is empty.
    private static func split(_ kept: FolderListings.Folder, _ each: (_ start: Int, _ count: Int, _ isFolder: Bool) -> Void) -> Bool {
        kept.names.withUnsafeBufferPointer { names in
            var start = 0
            for isFolder in kept.isFolder {
                guard start < names.count, let end = memchr(names.baseAddress! + start, 0, names.count - start) else { return false }
                let count = UnsafeRawPointer(end) - UnsafeRawPointer(names.baseAddress! + start)
                guard count > 0 else { return false }
                each(start, count, isFolder)
                start += count + 1
            }
            return start == names.count
        }
    }

    /// The listing as `FolderListings` keeps it: the names in `order`.
    func kept(in order: [Int], stamp: FolderListings.Stamp) -> FolderListings.Folder {
        var sorted: [UInt8] = []
        sorted.reserveCapacity(names.count)
        var isFolder: [Bool] = []
        isFolder.reserveCapacity(order.count)
        for index in order {
            let entry = entries[index]
            sorted.append(contentsOf: names[entry.start...(entry.start + entry.count)])
            isFolder.append(entry.kind == .folder)
        }
        return FolderListings.Folder(stamp: stamp, names: sorted, isFolder: isFolder)
    }

    /// The indices of the entries that are files.
    var fileIndices: [Int] { entries.indices.filter { entries[$0].kind == .file } }

    /// Whether the entries are the names and kinds of `kept`, in any order: as many, and
    /// the same sum and the same exclusive or of a hash of each (name and kind), which
    /// two different sets of names match by chance one time in 2^64 or fewer.
    func names(areTheSameAs kept: FolderListings.Folder) -> Bool {
        guard entries.count == kept.isFolder.count else { return false }
        func hash(_ name: UnsafeBufferPointer<UInt8>, isFolder: Bool) -> UInt64 {
            var print = Fingerprint()
            print.add(UnsafeRawBufferPointer(name))
            print.add(isFolder ? 1 : 0)
            return print.value
        }
        var mine: (sum: UInt64, xor: UInt64) = (0, 0)
        names.withUnsafeBufferPointer { names in
            for entry in entries {
                let value = hash(UnsafeBufferPointer(rebasing: names[entry.start..<entry.start + entry.count]), isFolder: entry.kind == .folder)
                mine = (mine.sum &+ value, mine.xor ^ value)
            }
        }
        var theirs: (sum: UInt64, xor: UInt64) = (0, 0)
        let whole = kept.names.withUnsafeBufferPointer { names in
            Listing.split(kept) { start, count, isFolder in
                let value = hash(UnsafeBufferPointer(rebasing: names[start..<start + count]), isFolder: isFolder)
                theirs = (theirs.sum &+ value, theirs.xor ^ value)
            }
        }
        return whole && mine == theirs
    }

    func name(_ index: Int) -> String {
        let entry = entries[index]
        return String(decoding: names[entry.start..<entry.start + entry.count], as: UTF8.self)
    }

    /// `relative` and the entry's name, put together on the stack and made a string in one
    /// allocation. Written into the string's own storage, each path was validated as UTF-8
    /// a byte at a time; decoded, an ASCII path is checked eight bytes at a time (640 → 600
    /// instructions a path, most of the rest the allocation: 6 million for the 10,000
    /// sources of every rebuild).
    func path(_ index: Int, in relative: String) -> String {
        let entry = entries[index]
        return names.withUnsafeBufferPointer { names in
            PackedPaths.joining(relative, UnsafeBufferPointer(rebasing: names[entry.start..<(entry.start + entry.count)])) { String(decoding: $0, as: UTF8.self) }
        }
    }

    /// The entries' indices in the order of their names, a folder's name as if it ended
    /// with "/". ASCII names compare as bytes, others as strings.
    func sortedOrder() -> [Int] {
        guard isASCII else {
            let keys = entries.indices.map { name($0) + (entries[$0].kind == .folder ? "/" : "") }
            return entries.indices.sorted { keys[$0] < keys[$1] }
        }
        // Each name as it sorts, NUL-terminated: followed by "/" for a folder. Zeros after
        // the last let every key be read eight bytes at a time.
        var keys: [UInt8] = []
        keys.reserveCapacity(names.count + entries.count + 24)
        var starts: [Int] = []
        starts.reserveCapacity(entries.count)
        for entry in entries {
            starts.append(keys.count)
            keys.append(contentsOf: names[entry.start..<entry.start + entry.count])
            if entry.kind == .folder { keys.append(UInt8(ascii: "/")) }
            keys.append(0)
        }
        keys.append(contentsOf: repeatElement(0, count: 24))
        return keys.withUnsafeBufferPointer { keys in
            let base = UnsafeRawPointer(keys.baseAddress!)
            // The first 24 bytes of each key as three big-endian numbers, zeros past its end:
            // they settle most comparisons.
            var prefixes = [UInt64](repeating: 0, count: 3 * starts.count)
            for index in starts.indices {
                let start = starts[index]
                let length = entries[index].count + (entries[index].kind == .folder ? 1 : 0)
                for word in 0..<3 where length > word * 8 {
                    let value = UInt64(bigEndian: base.loadUnaligned(fromByteOffset: start + word * 8, as: UInt64.self))
                    prefixes[3 * index + word] = length - word * 8 >= 8 ? value : value & ~(UInt64.max >> UInt64((length - word * 8) * 8))
                }
            }
            return prefixes.withUnsafeBufferPointer { prefixes in
                func samePrefix(_ a: Int, _ b: Int) -> Bool {
                    prefixes[3 * a] == prefixes[3 * b] && prefixes[3 * a + 1] == prefixes[3 * b + 1] && prefixes[3 * a + 2] == prefixes[3 * b + 2]
                }
                func precedes(_ a: Int, _ b: Int) -> Bool {
                    for word in 0..<3 where prefixes[3 * a + word] != prefixes[3 * b + word] { return prefixes[3 * a + word] < prefixes[3 * b + word] }
                    return strcmp((base + starts[a] + 24).assumingMemoryBound(to: CChar.self), (base + starts[b] + 24).assumingMemoryBound(to: CChar.self)) < 0
                }
                guard entries.count > Self.radixSortFrom else { return entries.indices.sorted(by: precedes) }
                var order = Self.radixOrder(prefixes)
                // Keys that share their first 24 bytes are next to each other now, in no
                // order: a few at a time, put in order by insertion.
                order.withUnsafeMutableBufferPointer { order in
                    var runStart = 0
                    for position in 1..<order.count {
                        if !samePrefix(order[position], order[runStart]) {
                            runStart = position
                            continue
                        }
                        let moving = order[position]
                        var place = position
                        while place > runStart, precedes(moving, order[place - 1]) {
                            order[place] = order[place - 1]
                            place -= 1
                        }
                        order[place] = moving
                    }
                }
                return order
            }
        }
    }

    /// Fewer entries are sorted by comparisons: the radix passes cost a table of 256
    /// counts each.
    private static let radixSortFrom = 256

    /// The indices of the keys whose 24-byte prefixes are `prefixes` (three words each),
    /// sorted by those bytes last byte first, a pass for each byte that not all of them
    /// have the same: a comparison sort of a homework folder's 50,000 names took several
    /// times the instructions.
    private static func radixOrder(_ prefixes: UnsafeBufferPointer<UInt64>) -> [Int] {
        let count = prefixes.count / 3
        var differing = [UInt64](repeating: 0, count: 3)
        for index in 0..<count {
            for word in 0..<3 { differing[word] |= prefixes[3 * index + word] ^ prefixes[word] }
        }
        var order = Array(0..<count)
        var other = order
        var tally = [Int](repeating: 0, count: 256)
        for position in (0..<24).reversed() {
            let word = position / 8
            let shift = UInt64((7 - position % 8) * 8)
            guard (differing[word] >> shift) & 0xFF != 0 else { continue }
            tally.withUnsafeMutableBufferPointer { tally in
                tally.update(repeating: 0)
                for index in 0..<count { tally[Int(truncatingIfNeeded: prefixes[3 * index + word] >> shift) & 0xFF] += 1 }
                var total = 0
                for value in 0..<256 {
                    let count = tally[value]
                    tally[value] = total
                    total += count
                }
                order.withUnsafeBufferPointer { from in
                    other.withUnsafeMutableBufferPointer { to in
                        for index in from {
                            let value = Int(truncatingIfNeeded: prefixes[3 * index + word] >> shift) & 0xFF
                            to[tally[value]] = index
                            tally[value] += 1
                        }
                    }
                }
            }
            swap(&order, &other)
        }
        return order
    }

    /// Files are looked up on every core, in runs of this many, when there are more.
    static let run = 256

    /// The paths (`relative` and the name) and stamps of the entries at `indices`, files of
    /// the open folder `folder`, in their order; nil for one that is gone.
    func files(_ indices: [Int], in folder: Int32, under relative: String) -> [(String, FileStamp)?] {
        parallelMap(indices, inRunsOf: Self.run) { index in
            names.withUnsafeBufferPointer { names in
                FileStamp.of(names.baseAddress! + entries[index].start, in: folder).map { (path(index, in: relative), $0) }
            }
        }
    }
}

extension UnsafeBufferPointer<UInt8> {
    /// Whether no byte has its high bit set, looked at eight at a time.
    var isASCII: Bool {
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
        return true
    }
}

/// Reads a whole file with one `read` call when it can.
enum FileReader {
    static func read(_ path: String) -> [UInt8]? {
        read(opening: open(path, O_RDONLY | O_CLOEXEC), size: nil, notInMemory: nil)
    }

    /// The file `name` of the open folder `folder`; `size`, when given, is the size the
    /// walk of the folders found (the file is read whole whatever its size is now).
    /// `notInMemory`, when given, is called before waiting for the disk: the file's pages
    /// were not all in memory.
    static func read(_ name: String, in folder: Int32, size: Int? = nil, notInMemory: (() -> Void)? = nil) -> [UInt8]? {
        read(opening: openat(folder, name, O_RDONLY | O_CLOEXEC), size: size, notInMemory: notInMemory)
    }

    private static func read(opening descriptor: Int32, size: Int?, notInMemory: (() -> Void)?) -> [UInt8]? {
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        // The size the walk found spares asking for it again (60,000 sources of a large
        // site, two calls each with the read that finds the end).
        let expected: Int
        if let size {
            expected = size
        } else {
            var info = stat()
            guard fstat(descriptor, &info) == 0 else { return nil }
            expected = Int(info.st_size)
        }
        // One byte more than the file has: a read that fills it tells a file that grew
        // while being read, without a second buffer for every file. Reads that stop at the
        // size expected found the end (a regular file reads short only there, or when a
        // signal cuts a read short), so no read is spent on finding it; short of that size,
        // reading goes on until a read returns nothing.
        var filled = 0
        var atEnd = false
        var bytes = [UInt8](unsafeUninitializedCapacity: expected + 1) { buffer, count in
            if let notInMemory {
                // What is in memory, without waiting for the disk (fails with EAGAIN when
                // nothing is; with EOPNOTSUPP where the file system cannot tell, and the
                // reads below do it all).
                let result = KernelFiles.readIfInMemory(descriptor, into: UnsafeMutableRawBufferPointer(buffer))
                if result >= 0 {
                    filled = result
                    atEnd = filled == expected
                }
                if !atEnd, filled < expected, result >= 0 || errno == EAGAIN {
                    // This file's own pages are asked for before the ones after it.
                    KernelFiles.willNeed(descriptor, from: filled)
                    notInMemory()
                }
            }
            while !atEnd, filled < buffer.count {
                let result = SystemCall.read(descriptor, buffer.baseAddress! + filled, buffer.count - filled)
                if result < 0, errno == EINTR { continue }
                guard result > 0 else { break }
                filled += result
                if filled == expected { break }
            }
            count = filled
        }
        guard filled > expected else { return bytes }
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { SystemCall.read(descriptor, $0.baseAddress!, $0.count) }
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
