import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Watches folders and everything inside them with inotify: no polling. A burst of
/// changes (an editor saving a file writes it several times) comes out as one call with
/// every path that changed, once the folders have been quiet for `quiet` milliseconds
/// (editors finish a save within a few milliseconds; every one of them adds to the time
/// a writer waits for the page).
public final class FolderWatcher: @unchecked Sendable {
    private let descriptor: Int32
    private var folders: [Int32: String] = [:]
    private let quiet: Int32

    public init?(folders roots: [String], quiet: Int32 = 25) {
        descriptor = inotify_init1(Int32(IN_CLOEXEC))
        guard descriptor >= 0 else { return nil }
        self.quiet = quiet
        for root in roots { addTree(root) }
    }

    deinit { close(descriptor) }

    private static let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_DELETE_SELF | IN_ATTRIB)

    private func addTree(_ folder: String) {
        let watch = inotify_add_watch(descriptor, folder, FolderWatcher.mask)
        guard watch >= 0 else { return }
        folders[watch] = folder
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for name in names where !name.hasPrefix(".") || name == StaticFiles.wellKnown {
            var info = stat()
            if lstat(folder + "/" + name, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR { addTree(folder + "/" + name) }
        }
    }

    /// Blocks, calling `changed` with the paths of each burst of changes and `whileQuiet`
    /// about every half second while the folders are quiet, until either returns false.
    public func run(whileQuiet: () -> Bool = { true }, _ changed: ([String]) -> Bool) {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var burst: Set<String> = []
        while true {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, burst.isEmpty ? 500 : quiet)
            if ready < 0 {
                if errno == EINTR { continue }
                return
            }
            if ready == 0, burst.isEmpty {
                if !whileQuiet() { return }
                continue
            }
            if ready == 0 {
                let paths = burst.sorted()
                burst.removeAll()
                if !changed(paths) { return }
                continue
            }
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { continue }
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
                guard let folder = folders[watch], !name.hasPrefix(".") || name == StaticFiles.wellKnown, !name.hasSuffix("~") else { continue }
                let path = name.isEmpty ? folder : folder + "/" + name
                if mask & UInt32(IN_ISDIR) != 0, mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 { addTree(path) }
                burst.insert(path)
            }
        }
    }
}
