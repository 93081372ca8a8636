import Foundation
import SitegenPlatform
import SitegenSupport
import Synchronization

/// Reads a whole file with one `read` call when it can.
public enum FileReader {
    public static func read(_ path: String) -> [UInt8]? {
        read(opening: open(path, O_RDONLY | O_CLOEXEC), size: nil, notInMemory: nil)
    }

    /// The file `name` of the open folder `folder`; `size`, when given, is the size the
    /// walk of the folders found (the file is read whole whatever its size is now).
    /// `notInMemory`, when given, is called before waiting for the disk: the file's pages
    /// were not all in memory.
    public static func read(_ name: String, in folder: Int32, size: Int? = nil, notInMemory: (() -> Void)? = nil) -> [UInt8]? {
        read(opening: openat(folder, name, O_RDONLY | O_CLOEXEC), size: size, notInMemory: notInMemory)
    }

    private static func read(opening descriptor: Int32, size: Int?, notInMemory: (() -> Void)?) -> [UInt8]? {
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        // The size the walk found spares asking for it again, for every source of the
        // site (two calls each with the read that finds the end).
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
