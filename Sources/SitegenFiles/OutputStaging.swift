import Foundation
import SitegenLocking
import SitegenSupport
import SitegenPlatform
import Synchronization

/// A folder beside the output where rendered pages wait until every page is rendered.
/// Only pages whose bytes differ from the output's are staged; the write stage moves them
/// into place, each with one atomic rename. When there is no output yet (a first build, a
/// build on a clean machine), the staging folder is laid out as the output will be and
/// becomes it with one rename: thousands of renames and folders fewer at the end.
public struct OutputStaging: Sendable {
    public let folder: String
    public let outputRoot: String
    /// Whether pages are staged at their own paths, for the whole folder to become the output.
    public let mirrorsOutput: Bool
    /// How many bytes of rendered pages a rebuild keeps in memory for the write stage: a
    /// stylesheet edited changes every page of the site.
    private let heldLimit: Int
    private let counter = StagingCounter()
    private var folders: StagingFolders?
    /// The staging folder, open: pages laid out as the output are created by their path
    /// inside it, so the kernel looks up three names per file instead of every name of the
    /// folder's absolute path.
    private let opened: OpenFolder?

    /// The file in a staging folder that says whose it is: the folders of builds that were
    /// killed are found by it, and removed by the next build.
    public static let markerName = ".sitegen-staging"

    public init?(output: URL, heldLimit: Int = 256 << 20) {
        self.heldLimit = heldLimit
        let parent = output.deletingLastPathComponent().path
        let prefix = OutputStaging.prefix(of: output)
        outputRoot = output.path
        mirrorsOutput = !FileManager.default.fileExists(atPath: output.path) || OutputStaging.isEmptyFolder(output.path)
        try? FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        var made: String?
        for _ in 0..<8 {
            let candidate = parent + "/" + prefix + "\(getpid())-" + String(UInt32.random(in: 0...UInt32.max), radix: 16)
            if mkdir(candidate, mirrorsOutput ? 0o755 : 0o700) == 0 {
                made = candidate
                break
            }
            guard errno == EEXIST else { return nil }
        }
        guard let made else { return nil }
        folder = made
        // Whole or not at all: a marker cut short by a kill would name no process, and keep
        // its folder from every later build.
        let marker = Array("sitegen staging folder of \(output.path), \(RunningProcess.current)\n".utf8)
        guard (try? NewFile.make(at: made + "/" + OutputStaging.markerName, { descriptor in
            try marker.withUnsafeBytes { try writeAll($0, to: descriptor, at: 0) }
        })) != nil else {
            rmdir(made)
            return nil
        }
        opened = OpenFolder(folder)
    }

    private static func prefix(of output: URL) -> String {
        ".\(output.lastPathComponent).sitegen-staging-"
    }

    /// Removes the staging folders of builds of `output` that were killed: each is known by
    /// its marker, which names a process that no longer runs, or is empty (a build killed
    /// before it wrote its marker). Also the marker a first build killed just after it
    /// became the output left at the output's top. Every build that writes asks, the ones
    /// that find nothing changed too: a build killed before it touched the output leaves
    /// the output as the cache knows it.
    public static func removeLeftovers(of output: URL) {
        let parent = output.deletingLastPathComponent().path, prefix = prefix(of: output)
        let output = output.path
        unlink(output + "/" + markerName)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: parent) else { return }
        for name in names where name.hasPrefix(prefix) {
            let folder = parent + "/" + name
            if rmdir(folder) == 0 { continue }
            guard let marker = try? String(contentsOfFile: folder + "/" + markerName, encoding: .utf8),
                  marker.hasPrefix("sitegen staging folder of \(output), "),
                  let owner = RunningProcess(description: String(marker.dropFirst("sitegen staging folder of \(output), ".count)).trimmingCharacters(in: .newlines)),
                  !owner.isRunning else { continue }
            try? FileManager.default.removeItem(atPath: folder)
        }
    }

    public func stage(_ path: String, _ bytes: [UInt8], previous: OutputManifest.Entry?) -> OutputFile {
        bytes.withUnsafeBufferPointer { stage(path, $0, previous: previous) }
    }

    /// `stage` of bytes where they were rendered: a page is copied into an array only when
    /// it cannot be written at once.
    public func stage(_ path: String, _ bytes: UnsafeBufferPointer<UInt8>, previous: OutputManifest.Entry?) -> OutputFile {
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
    public func makingFolders(for paths: [String]) -> OutputStaging {
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
    public func becomeOutput(with files: [OutputFile]) -> OutputWriter.Result? {
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
        // Removed once the folder is the output: a build killed in between leaves a folder
        // the next build knows, not one without its marker.
        unlink(outputRoot + "/" + OutputStaging.markerName)
        return result
    }

    public func remove() {
        folders?.finish()
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Whether `staged` is `folder`, a slash and `path`, compared as bytes in place, without
    /// a path made for each file: this runs for every file at the end of a first build, on
    /// one core.
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
    public static func holdsNoPages(_ path: String) -> Bool {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return true }
        return names.allSatisfy { $0.hasPrefix(".") }
    }
}

/// The folders of a staging laid out as the output, made one after the other on a thread
/// of their own.
public final class StagingFolders: Sendable {
    /// Where each path's folders come in the order of making.
    private let positions: [String: Int]
    /// How many paths have all their folders.
    private let made = Atomic(0)
    private let done = DispatchSemaphore(value: 0)

    /// Folders made in `root`, relative to it when it is `opened`.
    public init(in root: String, opened: OpenFolder?, for paths: [String]) {
        positions = Dictionary(paths.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        Thread.detachNewThread { [self] in
            // Over the paths' bytes, into one buffer for mkdir: found by characters, in a set
            // of substrings, the folders would take this thread from rendering.
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
    public func waitForFolder(of path: String) {
        guard let position = positions[path] else { return }
        while made.load(ordering: .acquiring) <= position { usleep(50) }
    }

    /// Waits for the thread to end, before the staging folder is renamed or removed.
    public func finish() {
        done.wait()
        done.signal()
    }
}

/// Numbers for staged files, unique whichever core asks, and the bytes of pages held in
/// memory instead.
public final class StagingCounter: Sendable {
    private let value = Locked(0)
    private let held = Atomic<Int>(0)

    public func next() -> Int {
        value.withLock { count in
            count += 1
            return count
        }
    }

    /// Counts `count` bytes more kept in memory, unless that passes `limit`.
    public func hold(_ count: Int, limit: Int) -> Bool {
        var current = held.load(ordering: .relaxed)
        while current + count <= limit {
            let (exchanged, found) = held.compareExchange(expected: current, desired: current + count, ordering: .relaxed)
            if exchanged { return true }
            current = found
        }
        return false
    }
}
