import Foundation
import SitegenPlatform

/// Copies a static file whose hash the build already has, without reading it into the
/// program: the kernel moves the bytes from page cache to page cache (and a file system
/// that shares blocks, such as Btrfs or XFS, clones them). Read into a buffer and written
/// out again, the photos of a site were copied twice over and, at the end of a first
/// build, one at a time.
public enum FileCopy {
    /// Copies `source` to `target` (relative to `folder` when one is given), made new
    /// (`exclusive`, whole or not at all: `NewFile`) or replaced; returns the new file's
    /// size and modification time.
    public static func copy(_ source: String, to target: String, in folder: Int32 = AT_FDCWD, exclusive: Bool) throws -> (size: Int, modified: Int64) {
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw POSIXError.current }
        defer { close(input) }
        if exclusive, folder == AT_FDCWD {
            return try NewFile.make(at: target) { try copy(from: input, to: $0) }
        }
        let output = openat(folder, target, O_WRONLY | O_CREAT | O_CLOEXEC | (exclusive ? O_EXCL : O_TRUNC), 0o644)
        guard output >= 0 else { throw POSIXError.current }
        defer { close(output) }
        return try copy(from: input, to: output)
    }

    private static func copy(from input: Int32, to output: Int32) throws -> (size: Int, modified: Int64) {
        var info = stat()
        guard fstat(input, &info) == 0 else { throw POSIXError.current }
        var copied = 0
        if !copyInKernel(from: input, to: output, expected: Int(info.st_size), copied: &copied) {
            try copyThroughBuffer(from: input, to: output, copied: &copied)
        }
        guard fstat(output, &info) == 0 else { throw POSIXError.current }
        return (copied, OutputManifest.time(of: info))
    }

    /// False when the kernel cannot copy between these files (another file system, a file
    /// system without the call, a file whose size says nothing of its bytes): the caller
    /// copies what is left through a buffer, from `copied` on.
    private static func copyInKernel(from input: Int32, to output: Int32, expected: Int, copied: inout Int) -> Bool {
        while true {
            let count = KernelFiles.copyRange(from: input, to: output, count: max(expected - copied, 1 << 20))
            if count > 0 {
                copied += count
                continue
            }
            // At the end; with nothing copied, the file may be one whose size is no guide
            // (procfs says 0) or empty: the buffer tells.
            if count == 0 { return copied > 0 }
            if errno == EINTR { continue }
            // Nothing was written by a call that failed; the buffer goes on from `copied`.
            return false
        }
    }

    private static func copyThroughBuffer(from input: Int32, to output: Int32, copied: inout Int) throws {
        let size = 1 << 20
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = pread(input, buffer, size, off_t(copied))
            if count < 0 {
                if errno == EINTR { continue }
                throw POSIXError.current
            }
            if count == 0 { return }
            try writeAll(UnsafeRawBufferPointer(start: buffer, count: count), to: output, at: copied)
            copied += count
        }
    }
}

/// Writes all of `bytes` to `descriptor` from `offset` on, going on where a write was cut
/// short or interrupted.
public func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32, at offset: Int) throws {
    var written = 0
    while written < bytes.count {
        let result = pwrite(descriptor, bytes.baseAddress! + written, bytes.count - written, off_t(offset + written))
        if result < 0 {
            if errno == EINTR { continue }
            throw POSIXError.current
        }
        written += result
    }
}
