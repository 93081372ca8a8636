import Foundation
import SitegenPlatform
import Synchronization

/// The **write** stage. Nothing is written before every page is rendered; then only the
/// files whose bytes changed are written, each replaced atomically (a new file renamed
/// over the old one), and files the site no longer has are removed last. Unchanged files
/// keep their modification times, so hosts and rsync upload only what changed.
enum OutputWriter {
    struct Result: Sendable {
        var written = 0
        var unchanged = 0
        var removed = 0
        var bytesWritten = 0
        /// What every file of the output now is, for the next build.
        var manifest: [String: OutputManifest.Entry] = [:]
        /// The files written and removed, when the output was as the last build left it
        /// (`outputIsAsLeft`): only their folders can have new times. Nil otherwise.
        var changedPaths: [String]?
    }

    /// Why sitegen will not write to `output`, or nil when it will.
    static func refusal(output: URL, source: URL) -> String? {
        let out = output.resolvingSymlinksInPath().standardizedFileURL.path
        let site = source.resolvingSymlinksInPath().standardizedFileURL.path
        func isInside(_ path: String, _ folder: String) -> Bool { path == folder || path.hasPrefix(folder + "/") }
        if out == site { return "the output folder cannot be the site folder itself (\(output.path))" }
        if isInside(site, out) { return "the output folder \(output.path) contains the site; choose a folder inside or beside it" }
        for protected in ["Content", "Themes"] where isInside(out, site + "/" + protected) {
            return "the output folder \(output.path) is inside \(protected)/; choose a folder outside it"
        }
        if out == "/" { return "the output folder cannot be /" }
        return nil
    }

    /// Brings `output` to exactly `files`. `previous` is the manifest of the last build:
    /// a file it lists with the same size, time and content hash is known to be unchanged
    /// without reading it. With `removingStale` false, `files` are some of the output's
    /// files (a rebuild that knows which changed) and nothing else is touched.
    /// `previousFolders`: the folder times the last build left (`BuildCache.folders`); the
    /// search for stale files is skipped only when none changed. `outputIsAsLeft`: every
    /// file and folder was found as `previous` and `previousFolders` have them at the start
    /// of the build (`SiteBuilder.outputIsAsLeft`); they are not looked at again, and the
    /// stale files are the last build's files the site no longer has.
    static func write(_ files: [OutputFile], to output: URL, previous: PathTable<OutputManifest.Entry> = PathTable(), previousFolders: PathTable<Int64> = PathTable(),
                      removingStale: Bool = true, outputIsAsLeft: Bool = false, staging: OutputStaging? = nil) throws -> Result {
        for file in files where safeRelativePath(file.path) == nil {
            throw CocoaError(.fileWriteInvalidFileName, userInfo: [NSFilePathErrorKey: file.path])
        }
        if let staging, staging.mirrorsOutput, let result = staging.becomeOutput(with: files) { return result }
        let root = output.path
        var rootInfo = stat()
        if stat(root, &rootInfo) == 0, (rootInfo.st_mode & S_IFMT) != S_IFDIR {
            throw CocoaError(.fileWriteFileExists, userInfo: [NSFilePathErrorKey: root, NSLocalizedDescriptionKey: "\(root) is a file, not a folder"])
        }
        // Before anything is written: a folder whose time changed since the last build may
        // hold files someone else put there.
        let foldersAsLeft = removingStale && (outputIsAsLeft || foldersAreAsLeft(previousFolders, in: root))
        try makeFolder(root)
        // A file found unchanged was just seen in its folder; only the others may need one.
        for folder in folders(of: files.filter { !$0.isUnchanged }).sorted() { try makeFolder(root + "/" + folder) }

        let replacer = FileReplacer(in: root)
        let outcomes = parallelMap(files) { file -> Result.FileOutcome in
            do {
                return try writeIfChanged(file, root: root, previous: previous[file.path], replacer: replacer)
            } catch {
                return .failed(file.path, "\(error)")
            }
        }
        replacer.finish()
        var result = Result()
        var changedPaths: [String] = []
        for (file, outcome) in zip(files, outcomes) {
            switch outcome {
            case .written(let entry, let bytes):
                result.written += 1
                result.bytesWritten += bytes
                result.manifest[file.path] = entry
                changedPaths.append(file.path)
            case .unchanged(let entry):
                result.unchanged += 1
                result.manifest[file.path] = entry
            case .failed(let path, let reason):
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path, NSLocalizedDescriptionKey: reason])
            }
        }
        // When the site has exactly the files of the last build, which left nothing else,
        // and no folder changed since, there is nothing stale to look for in thousands of
        // folders.
        guard removingStale else { return result }
        let keeping = Set(files.map(\.path))
        if previous.isEmpty || !foldersAsLeft || previous.count != keeping.count || !keeping.allSatisfy({ previous[$0] != nil }) {
            if outputIsAsLeft {
                // The output holds the last build's files and nothing else: those the site
                // no longer has are stale, and no folder need be searched (an article added
                // or removed searched all 12,500 folders of 10,000 articles).
                let stale = previous.keys.filter { !keeping.contains($0) }
                result.removed = remove(stale, in: root, keepingFoldersOf: folders(of: files))
                changedPaths += stale
            } else {
                result.removed = removeStale(in: root, keeping: keeping, folders: folders(of: files))
            }
        }
        if outputIsAsLeft { result.changedPaths = changedPaths }
        return result
    }

    /// `times` with the folders along `paths` (relative to `root`) looked at again, and
    /// those gone left out.
    static func folderTimes(_ times: PathTable<Int64>, updatedAlong paths: [String], in root: String) -> PathTable<Int64> {
        guard let (found, gone) = folderTimes(along: paths, in: root) else { return PathTable() }
        var updated = times
        for folder in gone where updated[folder] != nil { updated[folder] = nil }
        updated.merge(found)
        return updated
    }

    /// The modification time of the output and of every folder that holds its `paths`,
    /// and every folder above those, by path relative to the output ("" for the output).
    static func folderTimes(of paths: some Collection<String>, in root: String) -> [String: Int64] {
        folderTimes(along: paths, in: root)?.times ?? [:]
    }

    /// The times of the output and of the folders along `paths`, and those of them that are
    /// gone; nil when the output cannot be opened.
    private static func folderTimes(along paths: some Collection<String>, in root: String) -> (times: [String: Int64], gone: [String])? {
        // The folders are hashed once, as the keys of the result, and their times put in
        // place by position: at the end of a first build, on one core, a set of 13,000
        // folders made and then hashed again into a dictionary took most of this.
        var times: [String: Int64] = ["": 0]
        times.reserveCapacity(paths.count + 1)
        for path in paths {
            var end = path.utf8.endIndex
            while let slash = path.utf8[..<end].lastIndex(of: UInt8(ascii: "/")) {
                guard times.updateValue(0, forKey: String(path[..<slash])) == nil else { break }
                end = slash
            }
        }
        guard let output = OpenFolder(root) else { return nil }
        let folders = Array(times.keys)
        let places = Array(times.values.indices)
        let found = parallelMap(folders) { output.stamp(of: $0.isEmpty ? "." : $0)?.modified }
        var gone: [String] = []
        for (index, time) in found.enumerated() {
            if let time { times.values[places[index]] = time } else { gone.append(folders[index]) }
        }
        for folder in gone { times[folder] = nil }
        return (times, gone)
    }

    /// Whether every file of the last build's manifest is still there as it was written
    /// and every folder of `times` still has the time it had (nothing was added to or
    /// removed from any of them), looked at together; false when nothing was recorded.
    static func isAsLeft(_ manifest: PathTable<OutputManifest.Entry>, folders times: PathTable<Int64>, in root: String) -> Bool {
        guard !manifest.isEmpty, !times.isEmpty, let output = OpenFolder(root) else { return false }
        return times.allMatch(in: output, folderIsAsLeft, along: manifest, fileIsAsWritten)
    }

    /// Whether every folder of `times` still has the time it had; false when nothing was
    /// recorded.
    static func foldersAreAsLeft(_ times: PathTable<Int64>, in root: String) -> Bool {
        guard !times.isEmpty, let output = OpenFolder(root) else { return false }
        return times.allMatch(in: output, folderIsAsLeft)
    }

    @Sendable private static func folderIsAsLeft(_ stamp: FileStamp?, _ time: Int64) -> Bool {
        stamp?.modified == time
    }

    @Sendable private static func fileIsAsWritten(_ stamp: FileStamp?, _ entry: OutputManifest.Entry) -> Bool {
        stamp == FileStamp(size: entry.size, modified: entry.modified)
    }

    /// The folders the files go in, relative to the output, the output itself left out.
    private static func folders(of files: [OutputFile]) -> Set<String> {
        // Paths here are safe (`safeRelativePath`): no empty part, so the folder is what
        // comes before the last slash.
        Set(files.compactMap { file in file.path.lastIndex(of: "/").map { String(file.path[..<$0]) } })
    }

    private static func writeIfChanged(_ file: OutputFile, root: String, previous: OutputManifest.Entry?, replacer: FileReplacer) throws -> Result.FileOutcome {
        let target = root + "/" + file.path
        let bytes: [UInt8]
        var knownHash: UInt64?
        var knownToDiffer = false
        switch file.contents {
        case .unchanged(let entry): return .unchanged(entry)
        case .held(let held, let hash):
            // Compared with the output's file when it was rendered.
            bytes = held
            knownHash = hash
            knownToDiffer = true
        case .staged(let staged, let entry):
            if let existing = try? FileManager.default.attributesOfItem(atPath: target), existing[.type] as? FileAttributeType == .typeDirectory {
                try FileManager.default.removeItem(atPath: target)
            }
            try replacer.move(staged, to: target)
            return .written(entry, entry.size)
        case .bytes(let data): bytes = data
        case .copy(let source, let known):
            // A site's photos are most of its bytes: with their hashes known, they are
            // neither read to be compared nor read to be copied (`FileCopy`).
            if let known {
                var info = stat()
                if stat(target, &info) != 0 {
                    if errno == ENOENT {
                        let copied = try FileCopy.copy(source.path, to: target, exclusive: true)
                        return .written(OutputManifest.Entry(size: copied.size, modified: copied.modified, hash: known), copied.size)
                    }
                } else if let previous, (info.st_mode & S_IFMT) == S_IFREG, Int(info.st_size) == previous.size, OutputManifest.time(of: info) == previous.modified {
                    // The output's copy is as the last build wrote it: its hash tells.
                    if previous.hash == known { return .unchanged(previous) }
                    let copied = try copy(source.path, over: file.path, root: root, replacer: replacer)
                    return .written(OutputManifest.Entry(size: copied.size, modified: copied.modified, hash: known), copied.size)
                }
            }
            guard let data = FileReader.read(source.path) else { throw CocoaError(.fileReadUnknown, userInfo: [NSFilePathErrorKey: source.path]) }
            bytes = data
            knownHash = known
        }
        let hash = knownHash ?? ContentHash.value(bytes)
        var info = stat()
        guard stat(target, &info) == 0 else {
            // A new file replaces nothing: it is written in place.
            return written(try writeFile(bytes, to: target, exclusive: true), bytes, hash)
        }
        if !knownToDiffer, (info.st_mode & S_IFMT) == S_IFREG, Int(info.st_size) == bytes.count {
            let modified = OutputManifest.time(of: info)
            if let previous, previous.size == bytes.count, previous.modified == modified, previous.hash == hash {
                return .unchanged(previous)
            }
            if previous == nil || previous?.modified != modified, FileReader.read(target) == bytes {
                return .unchanged(OutputManifest.Entry(size: bytes.count, modified: modified, hash: hash))
            }
        }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            // A folder stands where the file goes: the site changed shape.
            try FileManager.default.removeItem(atPath: target)
            return written(try writeFile(bytes, to: target, exclusive: true), bytes, hash)
        }
        let modified = try bytes.withUnsafeBufferPointer { try replacer.replace(target, with: $0) }
        return written(modified, bytes, hash)
    }

    /// Replaces the file at `path` with a copy of `source` made by the kernel (`FileCopy`)
    /// beside it and swapped in like every other file (`FileReplacer.move`).
    private static func copy(_ source: String, over path: String, root: String, replacer: FileReplacer) throws -> (size: Int, modified: Int64) {
        let folder = path.split(separator: "/").dropLast().map { $0 + "/" }.joined()
        let temporary = root + "/" + folder + ".sitegen-\(getpid())-" + (path.split(separator: "/").last.map(String.init) ?? "file")
        do {
            let copied = try FileCopy.copy(source, to: temporary, exclusive: false)
            try replacer.move(temporary, to: root + "/" + path)
            return copied
        } catch {
            unlink(temporary)
            throw error
        }
    }

    private static func written(_ modified: Int64, _ bytes: [UInt8], _ hash: UInt64) -> Result.FileOutcome {
        .written(OutputManifest.Entry(size: bytes.count, modified: modified, hash: hash), bytes.count)
    }

    private static func makeFolder(_ path: String) throws {
        if mkdir(path, 0o755) == 0 { return }
        var info = stat()
        if errno == EEXIST, stat(path, &info) == 0 {
            if (info.st_mode & S_IFMT) == S_IFDIR { return }
            unlink(path)
        }
        if mkdir(path, 0o755) != 0, errno != EEXIST {
            if errno == ENOENT {
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
                return
            }
            throw POSIXError.current
        }
    }

    /// Removes the files at `stale`, and the folders that held them when nothing is left in
    /// them (none of `folders`, which hold the site's files); how many files were removed.
    private static func remove(_ stale: [String], in root: String, keepingFoldersOf folders: Set<String>) -> Int {
        var removed = 0
        var emptied: Set<String> = []
        for path in stale {
            if unlink(root + "/" + path) == 0 { removed += 1 }
            var folder = Substring(path)
            while let slash = folder.lastIndex(of: "/") {
                folder = folder[..<slash]
                guard !folders.contains(String(folder)), emptied.insert(String(folder)).inserted else { break }
            }
        }
        // A folder after the folders in it, which are longer: it may hold nothing but them.
        for folder in emptied.sorted(by: { $0.utf8.count > $1.utf8.count }) { rmdir(root + "/" + folder) }
        return removed
    }

    /// Removes what the site no longer has, leaving hidden files and folders at the top of
    /// the output (`.git` of a deploy branch, `.gitkeep`) alone, but for `.well-known`,
    /// which a site publishes like any other folder.
    private static func removeStale(in root: String, keeping files: Set<String>, folders: Set<String>) -> Int {
        var removed = 0
        func visit(_ relative: String) -> Bool {
            let path = relative.isEmpty ? root : root + "/" + relative
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return false }
            var keptAny = false
            for name in names {
                // Hidden files at the top are someone else's, but for what a build that was
                // stopped left there (a spare of `FileReplacer`, a page's temporary file).
                if relative.isEmpty, name.hasPrefix("."), name != SourceTree.wellKnown, !name.hasPrefix(".sitegen-") {
                    keptAny = true
                    continue
                }
                let child = relative.isEmpty ? name : relative + "/" + name
                var info = stat()
                guard lstat(root + "/" + child, &info) == 0 else { continue }
                if (info.st_mode & S_IFMT) == S_IFDIR {
                    if visit(child) || folders.contains(child) {
                        keptAny = true
                    } else {
                        rmdir(root + "/" + child)
                    }
                } else if files.contains(child) {
                    keptAny = true
                } else {
                    unlink(root + "/" + child)
                    removed += 1
                }
            }
            return keptAny
        }
        _ = visit("")
        return removed
    }

    /// Writes `bytes` at `path`, relative to the open folder `folder` when one is given.
    static func writeStaged(_ bytes: UnsafeBufferPointer<UInt8>, to path: String, in folder: OpenFolder? = nil) throws -> Int64 {
        try writeFile(bytes, to: path, in: folder?.descriptor ?? AT_FDCWD, exclusive: false)
    }

    private static func writeFile(_ bytes: [UInt8], to path: String, exclusive: Bool) throws -> Int64 {
        try bytes.withUnsafeBufferPointer { try writeFile($0, to: path, exclusive: exclusive) }
    }

    /// Writes the bytes straight from the rendered buffer, without a Data copy, and
    /// returns the file's modification time.
    private static func writeFile(_ bytes: UnsafeBufferPointer<UInt8>, to path: String, in folder: Int32 = AT_FDCWD, exclusive: Bool) throws -> Int64 {
        let descriptor = openat(folder, path, O_WRONLY | O_CREAT | O_CLOEXEC | (exclusive ? O_EXCL : O_TRUNC), 0o644)
        guard descriptor >= 0 else { throw POSIXError.current }
        defer { close(descriptor) }
        try writeAll(UnsafeRawBufferPointer(bytes), to: descriptor, at: 0)
        var info = stat()
        return fstat(descriptor, &info) == 0 ? OutputManifest.time(of: info) : 0
    }

    /// The path as given when it stays inside the output folder; nil when it would leave it.
    static func safeRelativePath(_ path: String) -> String? {
        // On bytes: every page's path is checked, and String's contains goes through Foundation.
        var path = path
        let safe = path.withUTF8 { bytes -> Bool in
            let staging: StaticString = ".sitegen-"
            // Each part, from `start` to the next slash or the end.
            var start = 0
            for end in 0...bytes.count {
                guard end == bytes.count || bytes[end] == UInt8(ascii: "/") else {
                    if bytes[end] == 0 || bytes[end] == UInt8(ascii: "\\") { return false }
                    continue
                }
                let part = UnsafeBufferPointer(rebasing: bytes[start..<end])
                let isDots = part.allSatisfy { $0 == UInt8(ascii: ".") } && part.count <= 2
                let isStaging = staging.withUTF8Buffer { part.starts(with: $0) }
                if part.isEmpty || isDots || isStaging { return false }
                start = end + 1
            }
            return true
        }
        return safe ? path : nil
    }
}

extension OutputWriter.Result {
    enum FileOutcome: Sendable {
        case written(OutputManifest.Entry, Int)
        case unchanged(OutputManifest.Entry)
        case failed(String, String)
    }
}

/// A folder beside the output where rendered pages wait until every page is rendered.
/// Only pages whose bytes differ from the output's are staged; the write stage moves them
/// into place, each with one atomic rename. When there is no output yet (a first build, a
/// build on a clean machine), the staging folder is laid out as the output will be and
/// becomes it with one rename: thousands of renames and folders fewer at the end.
struct OutputStaging: Sendable {
    let folder: String
    let outputRoot: String
    /// Whether pages are staged at their own paths, for the whole folder to become the output.
    let mirrorsOutput: Bool
    /// How many bytes of rendered pages a rebuild keeps in memory for the write stage: a
    /// stylesheet edited changes all 197 MB of the pages of 10,000 articles.
    private let heldLimit: Int
    private let counter = StagingCounter()
    private var folders: StagingFolders?
    /// The staging folder, open: pages laid out as the output are created by their path
    /// inside it, so the kernel looks up three names per file instead of every name of the
    /// folder's absolute path (dentry look-ups were a tenth of a large build's kernel time).
    private let opened: OpenFolder?

    init?(output: URL, heldLimit: Int = 256 << 20) {
        self.heldLimit = heldLimit
        let parent = output.deletingLastPathComponent().path
        folder = parent + "/.\(output.lastPathComponent).sitegen-staging-\(getpid())"
        outputRoot = output.path
        mirrorsOutput = !FileManager.default.fileExists(atPath: output.path) || OutputStaging.isEmptyFolder(output.path)
        try? FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        guard mkdir(folder, mirrorsOutput ? 0o755 : 0o700) == 0 || errno == EEXIST else { return nil }
        opened = OpenFolder(folder)
    }

    func stage(_ path: String, _ bytes: [UInt8], previous: OutputManifest.Entry?) -> OutputFile {
        bytes.withUnsafeBufferPointer { stage(path, $0, previous: previous) }
    }

    /// `stage` of bytes where they were rendered: a page is copied into an array only when
    /// it cannot be written at once.
    func stage(_ path: String, _ bytes: UnsafeBufferPointer<UInt8>, previous: OutputManifest.Entry?) -> OutputFile {
        let hash = ContentHash.value(UnsafeRawBufferPointer(bytes))
        if mirrorsOutput, OutputWriter.safeRelativePath(path) != nil, let modified = place(bytes, at: path) {
            return OutputFile(path: path, contents: .staged(folder + "/" + path, OutputManifest.Entry(size: bytes.count, modified: modified, hash: hash)))
        }
        let target = outputRoot + "/" + path
        var info = stat()
        if stat(target, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, Int(info.st_size) == bytes.count {
            let modified = OutputManifest.time(of: info)
            if let previous, previous.modified == modified, previous.size == bytes.count {
                if previous.hash == hash { return OutputFile(path: path, contents: .unchanged(previous)) }
            } else if FileReader.read(target)?.elementsEqual(bytes) == true {
                return OutputFile(path: path, contents: .unchanged(OutputManifest.Entry(size: bytes.count, modified: modified, hash: hash)))
            }
        }
        // A page that replaces one of the output's waits in memory, to be written over the
        // file of a page it replaced (`FileReplacer`): staged in a file of its own, each
        // was an inode made and one freed. Past `heldLimit`, pages wait in files.
        if counter.hold(bytes.count, limit: heldLimit) { return OutputFile(path: path, contents: .held([UInt8](copying: bytes), hash: hash)) }
        let name = folder + "/" + String(counter.next())
        guard let modified = try? OutputWriter.writeStaged(bytes, to: name) else { return OutputFile(path: path, contents: .bytes([UInt8](copying: bytes))) }
        return OutputFile(path: path, contents: .staged(name, OutputManifest.Entry(size: bytes.count, modified: modified, hash: hash)))
    }

    /// This staging, with the folders of `paths` being made in a staging folder laid out as
    /// the output, in their order, on a thread of its own: pages rendered in that order find
    /// their folder made, and a page that comes early waits for it. One thread: two cores
    /// making folders in one folder at once spin on its lock.
    func makingFolders(for paths: [String]) -> OutputStaging {
        var staging = self
        staging.folders = StagingFolders(in: folder, opened: opened, for: paths.filter { OutputWriter.safeRelativePath($0) != nil })
        return staging
    }

    /// Writes `bytes` at `path` inside the staging folder, making its folders as needed.
    private func place(_ bytes: [UInt8], at path: String) -> Int64? {
        bytes.withUnsafeBufferPointer { place($0, at: path) }
    }

    private func place(_ bytes: UnsafeBufferPointer<UInt8>, at path: String) -> Int64? {
        placing(at: path) { name, folder in try OutputWriter.writeStaged(bytes, to: name, in: folder) }
    }

    /// What `write` made at `path` inside the staging folder, given the name to make and the
    /// open folder it is relative to (nil: the name is the whole path); the folders are made
    /// when `write` finds one missing.
    private func placing<Placed>(at path: String, _ write: (_ name: String, _ folder: OpenFolder?) throws -> Placed) -> Placed? {
        folders?.waitForFolder(of: path)
        let target = folder + "/" + path
        if let placed = try? write(opened == nil ? target : path, opened) { return placed }
        guard errno == ENOENT else { return nil }
        let parent = (target as NSString).deletingLastPathComponent
        guard (try? FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)) != nil else { return nil }
        return try? write(target, nil)
    }

    /// Places a file not staged yet by its path inside the staging folder (`stage` checked
    /// the paths of the staged ones): nil for one that would leave it, or cannot be placed.
    private func place(_ file: OutputFile) -> OutputManifest.Entry? {
        guard OutputWriter.safeRelativePath(file.path) != nil else { return nil }
        let bytes: [UInt8]
        switch file.contents {
        case .bytes(let given), .held(let given, _):
            bytes = given
        case .copy(let source, let known?):
            // Copied by the kernel (`FileCopy`).
            let copied = placing(at: file.path) { name, folder in try FileCopy.copy(source.path, to: name, in: folder?.descriptor ?? AT_FDCWD, exclusive: false) }
            return copied.map { OutputManifest.Entry(size: $0.size, modified: $0.modified, hash: known) }
        case .copy(let source, nil):
            guard let read = FileReader.read(source.path) else { return nil }
            bytes = read
        case .staged, .unchanged:
            return nil
        }
        return place(bytes, at: file.path).map { OutputManifest.Entry(size: bytes.count, modified: $0, hash: ContentHash.value(bytes)) }
    }

    /// Adds the files not staged yet and renames the staging folder to the output; nil
    /// (with nothing lost) when the output appeared meanwhile or a file cannot be placed.
    func becomeOutput(with files: [OutputFile]) -> OutputWriter.Result? {
        folders?.finish()
        var result = OutputWriter.Result()
        result.manifest.reserveCapacity(files.count)
        // The files not staged yet (static files, assets, feeds) are placed on both cores: a
        // site's photos are most of its bytes.
        let unstaged = files.indices.filter { if case .staged = files[$0].contents { false } else { true } }
        let placed = parallelMap(unstaged) { index in self.place(files[index]) }
        var next = 0
        for (index, file) in files.enumerated() {
            let entry: OutputManifest.Entry
            if case .staged(let staged, let stagedEntry) = file.contents {
                guard OutputStaging.isPath(staged, of: file.path, in: folder) else { return nil }
                entry = stagedEntry
            } else {
                assert(unstaged[next] == index, "placed in the files' order")
                guard let placedEntry = placed[next] else { return nil }
                entry = placedEntry
                next += 1
            }
            result.written += 1
            result.bytesWritten += entry.size
            result.manifest[file.path] = entry
        }
        if OutputStaging.isEmptyFolder(outputRoot) { rmdir(outputRoot) }
        guard rename(folder, outputRoot) == 0 else { return nil }
        return result
    }

    func remove() {
        folders?.finish()
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Whether `staged` is `folder`, a slash and `path`, compared as bytes in place: a path
    /// made for each file to compare with was a tenth of `becomeOutput`, on one core, at the
    /// end of a first build.
    private static func isPath(_ staged: String, of path: String, in folder: String) -> Bool {
        var staged = staged, path = path, folder = folder
        return staged.withUTF8 { whole in
            folder.withUTF8 { folder in
                path.withUTF8 { path in
                    guard whole.count == folder.count + 1 + path.count, let start = whole.baseAddress else { return false }
                    return (folder.isEmpty || memcmp(start, folder.baseAddress!, folder.count) == 0) && whole[folder.count] == UInt8(ascii: "/")
                        && (path.isEmpty || memcmp(start + folder.count + 1, path.baseAddress!, path.count) == 0)
                }
            }
        }
    }

    private static func isEmptyFolder(_ path: String) -> Bool {
        (try? FileManager.default.contentsOfDirectory(atPath: path))?.isEmpty == true
    }

    /// Whether the output at `path` has no page a last build could have left: it is
    /// missing, or holds only hidden entries at its top (a deploy branch's `.git`).
    static func holdsNoPages(_ path: String) -> Bool {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return true }
        return names.allSatisfy { $0.hasPrefix(".") }
    }
}

/// The folders of a staging laid out as the output, made one after the other on a thread
/// of their own.
final class StagingFolders: Sendable {
    /// Where each path's folders come in the order of making.
    private let positions: [String: Int]
    /// How many paths have all their folders.
    private let made = Atomic(0)
    private let done = DispatchSemaphore(value: 0)

    /// Folders made in `root`, relative to it when it is `opened`.
    init(in root: String, opened: OpenFolder?, for paths: [String]) {
        positions = Dictionary(paths.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        Thread.detachNewThread { [self] in
            // Over the paths' bytes, into one buffer for mkdir: found by characters, in a set
            // of substrings, the folders of 10,000 articles cost this thread a fifth of a
            // core's rendering time on two cores.
            let slash = UInt8(ascii: "/")
            var existing: Set<String> = []
            var folderPath = opened == nil ? Array(root.utf8) + [slash] : []
            let rootLength = folderPath.count
            let base = opened?.descriptor ?? AT_FDCWD
            for (position, path) in paths.enumerated() {
                var path = path
                path.withUTF8 { bytes in
                    for end in bytes.indices where bytes[end] == slash {
                        let folder = UnsafeBufferPointer(rebasing: bytes[..<end])
                        guard existing.insert(String(decoding: folder, as: UTF8.self)).inserted else { continue }
                        folderPath.removeSubrange(rootLength...)
                        folderPath.append(contentsOf: folder)
                        folderPath.append(0)
                        folderPath.withUnsafeBytes { _ = mkdirat(base, $0.baseAddress!.assumingMemoryBound(to: CChar.self), 0o755) }
                    }
                }
                made.store(position + 1, ordering: .releasing)
            }
            done.signal()
        }
    }

    /// Returns once the folders of `path` are made (at once for a path not in the list:
    /// its writer makes its folders).
    func waitForFolder(of path: String) {
        guard let position = positions[path] else { return }
        while made.load(ordering: .acquiring) <= position { usleep(50) }
    }

    /// Waits for the thread to end, before the staging folder is renamed or removed.
    func finish() {
        done.wait()
        done.signal()
    }
}

/// Numbers for staged files, unique whichever core asks, and the bytes of pages held in
/// memory instead.
final class StagingCounter: Sendable {
    private let value = Mutex(0)
    private let held = Atomic<Int>(0)

    func next() -> Int {
        value.withLock { count in
            count += 1
            return count
        }
    }

    /// Counts `count` bytes more kept in memory, unless that passes `limit`.
    func hold(_ count: Int, limit: Int) -> Bool {
        var current = held.load(ordering: .relaxed)
        while current + count <= limit {
            let (exchanged, found) = held.compareExchange(expected: current, desired: current + count, ordering: .relaxed)
            if exchanged { return true }
            current = found
        }
        return false
    }
}

/// What each file of the output was after the last build: its size, modification time
/// and content hash.
enum OutputManifest {
    struct Entry: Sendable, Hashable, Codable {
        var size: Int
        var modified: Int64
        var hash: UInt64
    }

    /// Nanoseconds since 1970 of a file's last change.
    static func time(of info: stat) -> Int64 {
        nanoseconds(info.modificationTime)
    }

    /// A time as nanoseconds since 1970.
    static func nanoseconds(_ time: timespec) -> Int64 {
        Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }
}
