import Foundation
import SitegenLocking
import SitegenPlatform
import Synchronization

/// Replaces files of the output with new bytes, each in one atomic step, without making a
/// file or deleting one per page.
///
/// A file replaced by renaming a new one over it costs ext4 a new inode and the old one
/// freed, and makes it start writing the new file's blocks at once (`auto_da_alloc`, which
/// guards programs that replace files without `fsync`): a rebuild that changes every page
/// (a stylesheet edited: every page names its new fingerprint) then costs more than a
/// first build, and on a file system without a journal, inodes freed in the last minutes
/// are searched past one by one before each new one. Instead, the new bytes are written
/// into a spare file and the two paths swap their files (`RENAME_EXCHANGE`): readers see
/// the old page or the new, never a mix, as with a rename. The old page, now at the
/// spare's path, is written over for the next page — only when no one else has it open (a
/// write lease is granted only then) and no other name links to it (a backup made with
/// hard links keeps its copy).
public final class FileReplacer: Sendable {
    /// The folder spare files are made in: the output's own, on the same file system.
    private let folder: String
    private let spares = Locked<[Spare]>([])
    private let made = Atomic<Int>(0)
    /// False once the file system refused to swap two files: from then on a file is
    /// replaced by renaming a new one over it.
    private let swaps = Atomic<Bool>(true)
    /// The permissions a new file gets here (0644 less the umask), known once a spare is
    /// made: only an old page with them is written over, so no page takes the permissions
    /// someone gave another.
    private let mode = Atomic<UInt32>(0)

    /// A file of ours no one else has open, kept open for its next bytes.
    private struct Spare {
        var path: String
        var descriptor: Int32
    }

    public init(in folder: String) {
        self.folder = folder
        _ = FileReplacer.leaseBreaksIgnored
    }

    /// Someone opening a file in the instant its lease is held sends this process SIGIO,
    /// which ends a process that does not handle it; sitegen has no use for the signal.
    private static let leaseBreaksIgnored: Bool = {
        var current = sigaction()
        guard sigaction(SIGIO, nil, &current) == 0, current.__sigaction_handler.sa_handler == nil else { return false }
        signal(SIGIO, SIG_IGN)
        return true
    }()

    /// Puts `bytes` in place of the file at `target` (which exists), atomically; its
    /// modification time.
    public func replace(_ target: String, with bytes: UnsafeBufferPointer<UInt8>) throws -> Int64 {
        let spare = try spares.withLock { $0.popLast() } ?? newSpare()
        let modified: Int64
        do {
            modified = try fill(spare.descriptor, with: bytes)
        } catch {
            close(spare.descriptor)
            unlink(spare.path)
            throw error
        }
        close(spare.descriptor)
        do {
            try move(spare.path, to: target)
        } catch {
            unlink(spare.path)
            throw error
        }
        return modified
    }

    /// Moves the file at `source` (new bytes, whole) to `target`, which it replaces when
    /// there is one, atomically; the file replaced is kept as a spare.
    public func move(_ source: String, to target: String) throws {
        if swaps.load(ordering: .relaxed) {
            if KernelFiles.exchange(source, target) {
                recycle(source)
                return
            }
            // A file system that cannot swap files; or nothing to swap with.
            if errno == EINVAL || errno == ENOSYS || errno == EOPNOTSUPP { swaps.store(false, ordering: .relaxed) }
        }
        guard rename(source, target) == 0 else { throw POSIXError.current }
    }

    /// Removes the spare files left; the replacer is done.
    public func finish() {
        let left = spares.withLock { spares in
            defer { spares.removeAll() }
            return spares
        }
        for spare in left {
            close(spare.descriptor)
            unlink(spare.path)
        }
    }

    private func newSpare() throws -> Spare {
        let path = folder + "/.sitegen-\(getpid())-spare-\(made.add(1, ordering: .relaxed).newValue)"
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw POSIXError.current }
        var info = stat()
        if fstat(descriptor, &info) == 0 { mode.store(UInt32(info.st_mode & 0o7777), ordering: .relaxed) }
        return Spare(path: path, descriptor: descriptor)
    }

    /// Writes `bytes` over whatever the file held, cut to their length; the file's time.
    /// Written over rather than emptied first: ext4 writes a file out at once when it is
    /// closed after being emptied (`auto_da_alloc` again), and its blocks are reused as they
    /// are.
    private func fill(_ descriptor: Int32, with bytes: UnsafeBufferPointer<UInt8>) throws -> Int64 {
        try writeAll(UnsafeRawBufferPointer(bytes), to: descriptor, at: 0)
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw POSIXError.current }
        if Int(info.st_size) > bytes.count, ftruncate(descriptor, off_t(bytes.count)) != 0 || fstat(descriptor, &info) != 0 {
            throw POSIXError.current
        }
        return OutputManifest.time(of: info)
    }

    /// Keeps the file now at `path` (the page it replaced) as a spare when it is a plain file
    /// of ours, with a new file's permissions, that nothing else opens or links to; else
    /// removes it, as a rename would have.
    private func recycle(_ path: String) {
        // Not waiting for a reader should someone have put a pipe there.
        let descriptor = open(path, O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            unlink(path)
            return
        }
        var info = stat()
        let reusable = fstat(descriptor, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG && info.st_nlink == 1 && info.st_uid == geteuid()
            && UInt32(info.st_mode & 0o7777) == mode.load(ordering: .relaxed) && KernelFiles.takeWriteLease(descriptor)
        guard reusable else {
            close(descriptor)
            unlink(path)
            return
        }
        KernelFiles.releaseLease(descriptor)
        spares.withLock { $0.append(Spare(path: path, descriptor: descriptor)) }
    }
}
