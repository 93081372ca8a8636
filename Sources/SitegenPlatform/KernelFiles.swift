#if os(Linux)
import CPlatform
#endif

/// File calls that Linux has and other systems lack or spell otherwise. Each says what it
/// does where the system has no such call, so that callers keep one path: a call that
/// cannot be made fails the way the kernel fails one it does not know (`ENOSYS`, or
/// `EOPNOTSUPP` for a read), and the caller's fallback takes over.
public enum KernelFiles {
    /// Swaps the files at `source` and `target` in one step (`renameat2` with
    /// RENAME_EXCHANGE). False, with `errno` set, when they were not swapped.
    public static func exchange(_ source: String, _ target: String) -> Bool {
        #if os(Linux)
        return renameat2(AT_FDCWD, source, AT_FDCWD, target, UInt32(SITEGEN_RENAME_EXCHANGE)) == 0
        #else
        errno = ENOSYS
        return false
        #endif
    }

    /// Copies up to `count` bytes from where `input` is to where `output` is, in the kernel
    /// (`copy_file_range`); the count copied, 0 at the end of `input`, or -1 with `errno`.
    public static func copyRange(from input: Int32, to output: Int32, count: Int) -> Int {
        #if os(Linux)
        return copy_file_range(input, nil, output, nil, count, 0)
        #else
        errno = ENOSYS
        return -1
        #endif
    }

    /// Reads what of the file from its current offset is in memory into `buffer`, without
    /// waiting for the disk (`preadv2` with RWF_NOWAIT): the count read, or -1 with `errno`
    /// EAGAIN when none of it is in memory, or EOPNOTSUPP where the system cannot tell.
    public static func readIfInMemory(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        #if os(Linux)
        var vector = iovec(iov_base: buffer.baseAddress, iov_len: buffer.count)
        return preadv2(descriptor, &vector, 1, -1, SITEGEN_RWF_NOWAIT)
        #else
        errno = EOPNOTSUPP
        return -1
        #endif
    }

    /// Asks the kernel to start reading the file from `offset` into memory; nothing where
    /// the system has no such advice.
    public static func willNeed(_ descriptor: Int32, from offset: Int = 0) {
        #if os(Linux)
        _ = posix_fadvise(descriptor, off_t(offset), 0, POSIX_FADV_WILLNEED)
        #endif
    }

    /// Takes a write lease on the open file: granted only while no one else has it open.
    /// False where the system has no leases, so a file is never taken as unshared there.
    public static func takeWriteLease(_ descriptor: Int32) -> Bool {
        #if os(Linux)
        return fcntl(descriptor, SITEGEN_F_SETLEASE, Int32(F_WRLCK)) == 0
        #else
        return false
        #endif
    }

    public static func releaseLease(_ descriptor: Int32) {
        #if os(Linux)
        _ = fcntl(descriptor, SITEGEN_F_SETLEASE, Int32(F_UNLCK))
        #endif
    }

    /// Whether the file system `path` is on stamps times finely (within the kernel's tick),
    /// from its type; false for one that may stamp whole seconds (two on FAT) or take the
    /// time from another machine's clock (NFS), and wherever the type cannot be told.
    public static func hasFineTimestamps(at path: String) -> Bool {
        fileSystemType(at: path).map(fineTimestampFileSystems.contains) ?? false
    }

    /// The `statfs` type of the file system `path` is on; nil where it cannot be told.
    public static func fileSystemType(at path: String) -> Int? {
        #if os(Linux)
        var info = statfs()
        return statfs(path, &info) == 0 ? Int(info.f_type) : nil
        #else
        return nil
        #endif
    }

    /// The `statfs` types of ext2-4, xfs, btrfs, tmpfs, overlayfs, zfs and f2fs.
    public static let fineTimestampFileSystems: Set<Int> = [0xEF53, 0x5846_5342, 0x9123_683E, 0x0102_1994, 0x794C_7630, 0x2FC1_2FC1, 0xF2F5_2010]

    /// Where the first `needleCount` bytes at `needle` first appear in the `count` bytes at
    /// `haystack` (`memmem`).
    public static func find(_ needle: UnsafeRawPointer, count needleCount: Int, in haystack: UnsafeRawPointer, count: Int) -> UnsafeMutableRawPointer? {
        memmem(haystack, count, needle, needleCount)
    }
}

/// How the heap of a process grows.
public enum Heap {
    /// Grows the heap in large steps of address space (pages are still taken only as they
    /// are first written): for a process that ends after one build, which would otherwise
    /// ask the kernel for more memory thousands of times. Not for one that goes on, which
    /// would keep that much free memory in each of its arenas.
    public static func growInLargeSteps() {
        #if canImport(Glibc)
        mallopt(M_TOP_PAD, 64 << 20)
        #endif
    }
}
