import SitegenPlatform

/// A file read in place, mapped into memory, not read into new memory the kernel would
/// first zero, then fill with a copy. Only sitegen writes these files, each whole into a
/// new file put in place with `rename`, so a mapped file does not change while it is read.
public final class MappedFile: @unchecked Sendable {
    public let bytes: UnsafeBufferPointer<UInt8>

    /// Nil when the file cannot be opened or mapped, or is empty.
    public init?(_ path: String) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size > 0,
              let address = mmap(nil, Int(info.st_size), PROT_READ, MAP_PRIVATE, descriptor, 0), address != MAP_FAILED else { return nil }
        bytes = UnsafeBufferPointer(start: address.assumingMemoryBound(to: UInt8.self), count: Int(info.st_size))
    }

    deinit {
        munmap(UnsafeMutableRawPointer(mutating: bytes.baseAddress), bytes.count)
    }
}
