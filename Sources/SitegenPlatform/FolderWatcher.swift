import Foundation

#if os(Linux)
import CPlatform
#endif

/// Watches folders and everything inside them. A burst of changes (an editor saving a file
/// writes it several times) comes out as one call with every path that changed, once the
/// folders have been quiet for `quiet` milliseconds (editors finish a save within a few
/// milliseconds; every one of them adds to the time a writer waits for the page).
///
/// Changes come from the kernel where it tells them (inotify), and otherwise from looking
/// at the folders again every few hundred milliseconds: on another system, or where the
/// kernel refuses more watches.
public final class FolderWatcher: @unchecked Sendable {
    public enum Method: Equatable, Sendable {
        case kernelEvents
        case polling(milliseconds: Int32)
    }

    public let method: Method
    private let source: any ChangeSource
    private let quiet: Int32

    /// Watches `roots`; `keeps` says which names inside them count (hidden files and an
    /// editor's backups do not, say). `method` nil takes the kernel's events where it has them.
    public init(folders roots: [String], quiet: Int32 = 25, method: Method? = nil, keeps: @escaping @Sendable (String) -> Bool) {
        self.quiet = quiet
        #if os(Linux)
        if method == nil || method == .kernelEvents, let events = InotifySource(roots: roots, keeps: keeps) {
            source = events
            self.method = .kernelEvents
            return
        }
        #endif
        var interval: Int32 = 300
        if case let .polling(milliseconds)? = method { interval = milliseconds }
        source = PollingSource(roots: roots, interval: interval, keeps: keeps)
        self.method = .polling(milliseconds: interval)
    }

    /// Blocks, calling `changed` with the paths of each burst of changes and `whileQuiet`
    /// about every half second while the folders are quiet, until either returns false or
    /// the folders can no longer be watched.
    public func run(whileQuiet: () -> Bool = { true }, _ changed: ([String]) -> Bool) {
        var burst: Set<String> = []
        while true {
            guard let paths = source.changes(within: burst.isEmpty ? 500 : quiet) else { return }
            if !paths.isEmpty {
                burst.formUnion(paths)
                continue
            }
            if burst.isEmpty {
                if !whileQuiet() { return }
                continue
            }
            let sorted = burst.sorted()
            burst.removeAll()
            if !changed(sorted) { return }
        }
    }
}

/// Where a watcher's changes come from.
protocol ChangeSource: AnyObject {
    /// The paths that changed, waiting up to `milliseconds` for one; none when nothing did
    /// in that time, nil when the folders can no longer be watched.
    func changes(within milliseconds: Int32) -> [String]?
}

#if os(Linux)
/// The kernel's events, with a watch on every folder.
final class InotifySource: ChangeSource {
    private let descriptor: Int32
    private var folders: [Int32: String] = [:]
    private let keeps: (String) -> Bool
    private var buffer = [UInt8](repeating: 0, count: 64 * 1024)

    private static let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_DELETE_SELF | IN_ATTRIB)

    /// Nil when the kernel gives no inotify instance or refuses a watch on a root.
    init?(roots: [String], keeps: @escaping (String) -> Bool) {
        descriptor = inotify_init1(Int32(IN_CLOEXEC))
        guard descriptor >= 0 else { return nil }
        self.keeps = keeps
        for root in roots where !addTree(root) {
            close(descriptor)
            return nil
        }
    }

    deinit { close(descriptor) }

    /// False when the kernel refused a watch (its limit of watches is reached).
    @discardableResult
    private func addTree(_ folder: String) -> Bool {
        let watch = inotify_add_watch(descriptor, folder, InotifySource.mask)
        guard watch >= 0 else { return errno == ENOENT || errno == ENOTDIR }
        folders[watch] = folder
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return true }
        for name in names where keeps(name) {
            var info = stat()
            if lstat(folder + "/" + name, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR, !addTree(folder + "/" + name) { return false }
        }
        return true
    }

    func changes(within milliseconds: Int32) -> [String]? {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let ready = poll(&poller, 1, milliseconds)
        if ready < 0 { return errno == EINTR ? [] : nil }
        guard ready > 0 else { return [] }
        let count = buffer.withUnsafeMutableBytes { SystemCall.read(descriptor, $0.baseAddress!, $0.count) }
        guard count > 0 else { return [] }
        var paths: [String] = []
        var offset = 0
        while offset + MemoryLayout<inotify_event>.size <= count {
            let (watch, mask, length) = buffer.withUnsafeBytes { raw -> (Int32, UInt32, Int) in
                let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                return (event.wd, event.mask, Int(event.len))
            }
            let nameStart = offset + MemoryLayout<inotify_event>.size
            let nameBytes = buffer[nameStart..<min(nameStart + length, count)].prefix { $0 != 0 }
            let name = String(decoding: nameBytes, as: UTF8.self)
            offset = nameStart + length
            guard let folder = folders[watch], name.isEmpty || keeps(name) else { continue }
            let path = name.isEmpty ? folder : folder + "/" + name
            if mask & UInt32(IN_ISDIR) != 0, mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 { addTree(path) }
            paths.append(path)
        }
        return paths
    }
}
#endif

/// The folders looked at again every `interval` milliseconds: what was added, removed or
/// changed (size, times or inode, which a save by rename changes) since the last look.
final class PollingSource: ChangeSource {
    private struct Signature: Equatable {
        var size: Int64
        var modified: timespec
        var changed: timespec
        var inode: UInt64
        var isFolder: Bool

        static func == (a: Signature, b: Signature) -> Bool {
            a.size == b.size && a.inode == b.inode && a.isFolder == b.isFolder
                && a.modified.tv_sec == b.modified.tv_sec && a.modified.tv_nsec == b.modified.tv_nsec
                && a.changed.tv_sec == b.changed.tv_sec && a.changed.tv_nsec == b.changed.tv_nsec
        }
    }

    private let roots: [String]
    private let interval: Int32
    private let keeps: (String) -> Bool
    private var seen: [String: Signature]

    init(roots: [String], interval: Int32, keeps: @escaping (String) -> Bool) {
        self.roots = roots
        self.interval = max(interval, 1)
        self.keeps = keeps
        seen = [:]
        seen = look()
    }

    func changes(within milliseconds: Int32) -> [String]? {
        usleep(useconds_t(max(milliseconds, interval)) * 1000)
        let now = look()
        guard now != seen else { return [] }
        var paths = now.compactMap { path, signature in seen[path] == signature ? nil : path }
        paths += seen.keys.filter { now[$0] == nil }
        seen = now
        return paths
    }

    private func look() -> [String: Signature] {
        var found: [String: Signature] = [:]
        var pending = roots
        while let folder = pending.popLast() {
            if let signature = signature(of: folder) { found[folder] = signature }
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { continue }
            for name in names where keeps(name) {
                let path = folder + "/" + name
                guard let signature = signature(of: path) else { continue }
                if signature.isFolder { pending.append(path) } else { found[path] = signature }
            }
        }
        return found
    }

    /// A folder's times change with every file saved in it by a rename, which the kernel's
    /// events do not report as a change of the folder: only its being there counts.
    private func signature(of path: String) -> Signature? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            return Signature(size: 0, modified: timespec(), changed: timespec(), inode: 0, isFolder: true)
        }
        return Signature(size: Int64(info.st_size), modified: info.modificationTime, changed: info.changeTime,
                         inode: UInt64(info.st_ino), isFolder: false)
    }
}
