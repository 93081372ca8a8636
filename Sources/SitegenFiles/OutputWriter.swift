import Foundation
import SitegenSupport
import SitegenPlatform
import Synchronization

/// The **write** stage. Nothing is written before every page is rendered; then only the
/// files whose bytes changed are written, each replaced atomically (a new file renamed
/// over the old one), and files the site no longer has are removed last. Unchanged files
/// keep their modification times, so hosts and rsync upload only what changed.
public enum OutputWriter {
    public struct Result: Sendable {
        public var written = 0
        public var unchanged = 0
        public var removed = 0
        public var bytesWritten = 0
        /// What every file of the output now is, for the next build.
        public var manifest: [String: OutputManifest.Entry] = [:]
        /// The files written and removed, when the output was as the last build left it
        /// (`outputIsAsLeft`): only their folders can have new times. Nil otherwise.
        public var changedPaths: [String]?
    }

    /// Why sitegen will not write to `output`, or nil when it will.
    public static func refusal(output: URL, source: URL) -> String? {
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
    public static func write(_ files: [OutputFile], to output: URL, previous: PathTable<OutputManifest.Entry> = PathTable(), previousFolders: PathTable<Int64> = PathTable(),
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
                // no longer has are stale, and no folder need be searched.
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
    public static func folderTimes(_ times: PathTable<Int64>, updatedAlong paths: [String], in root: String) -> PathTable<Int64> {
        guard let (found, gone) = folderTimes(along: paths, in: root) else { return PathTable() }
        var updated = times
        for folder in gone where updated[folder] != nil { updated[folder] = nil }
        updated.merge(found)
        return updated
    }

    /// The modification time of the output and of every folder that holds its `paths`,
    /// and every folder above those, by path relative to the output ("" for the output).
    public static func folderTimes(of paths: some Collection<String>, in root: String) -> [String: Int64] {
        folderTimes(along: paths, in: root)?.times ?? [:]
    }

    /// The times of the output and of the folders along `paths`, and those of them that are
    /// gone; nil when the output cannot be opened.
    private static func folderTimes(along paths: some Collection<String>, in root: String) -> (times: [String: Int64], gone: [String])? {
        // The folders are hashed once, as the keys of the result, and their times put in
        // place by position: this runs at the end of a first build, on one core.
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
    public static func isAsLeft(_ manifest: PathTable<OutputManifest.Entry>, folders times: PathTable<Int64>, in root: String) -> Bool {
        guard !manifest.isEmpty, !times.isEmpty, let output = OpenFolder(root) else { return false }
        return times.allMatch(in: output, folderIsAsLeft, along: manifest, fileIsAsWritten)
    }

    /// Whether every folder of `times` still has the time it had; false when nothing was
    /// recorded.
    public static func foldersAreAsLeft(_ times: PathTable<Int64>, in root: String) -> Bool {
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
    public static func writeStaged(_ bytes: UnsafeBufferPointer<UInt8>, to path: String, in folder: OpenFolder? = nil) throws -> Int64 {
        try writeFile(bytes, to: path, in: folder?.descriptor ?? AT_FDCWD, exclusive: false)
    }

    private static func writeFile(_ bytes: [UInt8], to path: String, exclusive: Bool) throws -> Int64 {
        try bytes.withUnsafeBufferPointer { try writeFile($0, to: path, exclusive: exclusive) }
    }

    /// Writes the bytes straight from the rendered buffer, without a Data copy, and
    /// returns the file's modification time.
    /// A file new to the output appears whole or not at all (`NewFile`).
    private static func writeFile(_ bytes: UnsafeBufferPointer<UInt8>, to path: String, in folder: Int32 = AT_FDCWD, exclusive: Bool) throws -> Int64 {
        func fill(_ descriptor: Int32) throws -> Int64 {
            try writeAll(UnsafeRawBufferPointer(bytes), to: descriptor, at: 0)
            var info = stat()
            return fstat(descriptor, &info) == 0 ? OutputManifest.time(of: info) : 0
        }
        if exclusive, folder == AT_FDCWD { return try NewFile.make(at: path, fill) }
        let descriptor = openat(folder, path, O_WRONLY | O_CREAT | O_CLOEXEC | (exclusive ? O_EXCL : O_TRUNC), 0o644)
        guard descriptor >= 0 else { throw POSIXError.current }
        defer { close(descriptor) }
        return try fill(descriptor)
    }

    /// The path as given when it stays inside the output folder; nil when it would leave it.
    public static func safeRelativePath(_ path: String) -> String? {
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
    public enum FileOutcome: Sendable {
        case written(OutputManifest.Entry, Int)
        case unchanged(OutputManifest.Entry)
        case failed(String, String)
    }
}

/// What each file of the output was after the last build: its size, modification time
/// and content hash.
public enum OutputManifest {
    public struct Entry: Sendable, Hashable, Codable {
        public var size: Int
        public var modified: Int64
        public var hash: UInt64

        public init(size: Int, modified: Int64, hash: UInt64) {
            self.size = size
            self.modified = modified
            self.hash = hash
        }
    }

    /// Nanoseconds since 1970 of a file's last change.
    public static func time(of info: stat) -> Int64 {
        nanoseconds(info.modificationTime)
    }

    /// A time as nanoseconds since 1970.
    public static func nanoseconds(_ time: timespec) -> Int64 {
        Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }
}
