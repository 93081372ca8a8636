import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The file beside a build cache that holds the encoded models, 60,000 of them on a large
/// site: a build adds the models it made to its end instead of writing the whole file
/// again, so a rebuild after one edit writes kilobytes, not a hundred megabytes. The
/// cache remembers which store it was written with, how long it was and its checksum; a
/// store that does not match is not trusted. When most of the store is models no longer
/// used, a new one is written in its place.
enum ModelStore {
    /// Which store, how much of it a cache uses, and the running checksum of that much.
    struct Mark: Sendable, Equatable {
        var identity: UInt64 = 0
        var length = 0
        var checksum: UInt64 = 0
    }

    /// "sgmodel1" and the store's identity.
    static let headerLength = 16
    private static let magic = Array("sgmodel1".utf8)
    private static let seed: UInt64 = 0x5347_4D4F_4445_4C31

    static func path(besides cachePath: String) -> String {
        (cachePath.hasSuffix(".cache") ? String(cachePath.dropLast(".cache".count)) : cachePath) + ".models"
    }

    /// The store's bytes, when it is the store of `mark` with its first `mark.length` bytes
    /// as they were written.
    static func read(_ path: String, as mark: Mark) -> [UInt8]? {
        guard mark.length >= headerLength, mark.length % 8 == 0, let bytes = FileReader.read(path), bytes.count >= mark.length,
              Array(bytes[0..<8]) == magic, identity(in: bytes[8..<16]) == mark.identity,
              Checksum.advance(seed, over: bytes[0..<mark.length]) == mark.checksum
        else { return nil }
        return bytes
    }

    /// Stores the models of `entries` that are not in the store read as `mark`, and calls
    /// `commit` with the new mark and where each entry's model is, while no other sitegen
    /// can change the store; nil when the store cannot be written.
    static func save(_ entries: [BuildCache.ContentEntry], at path: String, readAs mark: Mark, commit: (Mark, [Range<Int>]) -> Void) -> Bool {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        flock(descriptor, LOCK_EX)

        var info = stat()
        var header = [UInt8](repeating: 0, count: headerLength)
        let readable = fstat(descriptor, &info) == 0 && Int(info.st_size) >= mark.length && mark.length >= headerLength
            && pread(descriptor, &header, headerLength, 0) == headerLength
        let appendable = readable && Array(header[0..<8]) == magic && identity(in: header[8..<16]) == mark.identity
        let kept = entries.map { appendable ? $0.stored : nil }
        let fresh = parallelMap(Array(zip(entries, kept))) { entry, kept in kept == nil ? entry.encoded() : [] }
        let live = kept.reduce(0) { $0 + ($1?.count ?? 0) }
        let added = fresh.reduce(0) { $0 + padded($1.count) }

        // Mostly dead models: a new store with only the live ones.
        if !appendable || (mark.length - headerLength - live) * 2 > mark.length + added {
            var bytes = magic
            let identity = UInt64.random(in: 1...UInt64.max)
            withUnsafeBytes(of: identity.littleEndian) { bytes += $0 }
            bytes.reserveCapacity(headerLength + zip(entries, fresh).reduce(0) { $0 + padded($1.1.isEmpty ? ($1.0.stored?.count ?? 0) : $1.1.count) })
            var locations: [Range<Int>] = []
            locations.reserveCapacity(entries.count)
            for (entry, model) in zip(entries, fresh) {
                locations.append(append(model.isEmpty ? entry.encoded() : model, to: &bytes))
            }
            let temporary = path + ".\(getpid()).tmp"
            guard write(bytes, to: temporary), rename(temporary, path) == 0 else {
                unlink(temporary)
                return false
            }
            commit(Mark(identity: identity, length: bytes.count, checksum: Checksum.advance(seed, over: bytes[...])), locations)
            return true
        }

        // Otherwise the new models go after the ones the cache uses; whatever another
        // build left after those is not part of this cache.
        var tail: [UInt8] = []
        tail.reserveCapacity(added)
        var locations: [Range<Int>] = []
        locations.reserveCapacity(entries.count)
        for (kept, model) in zip(kept, fresh) {
            if let kept {
                locations.append(kept)
            } else {
                let range = append(model, to: &tail)
                locations.append((range.lowerBound + mark.length)..<(range.upperBound + mark.length))
            }
        }
        guard ftruncate(descriptor, off_t(mark.length)) == 0, writeAll(tail, to: descriptor, at: mark.length) else { return false }
        commit(Mark(identity: mark.identity, length: mark.length + tail.count, checksum: Checksum.advance(mark.checksum, over: tail[...])), locations)
        return true
    }

    /// Writes `bytes` to a new file at `path`.
    static func write(_ bytes: [UInt8], to path: String) -> Bool {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return writeAll(bytes, to: descriptor, at: 0)
    }

    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32, at start: Int) -> Bool {
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress! + written, $0.count - written, off_t(start + written)) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return false }
            written += count
        }
        return true
    }

    /// Adds `model` at the end of `bytes`, padded to whole 8-byte words; where it went.
    private static func append(_ model: ArraySlice<UInt8>, to bytes: inout [UInt8]) -> Range<Int> {
        let start = bytes.count
        bytes += model
        bytes += repeatElement(0, count: padded(model.count) - model.count)
        return start..<(start + model.count)
    }

    private static func padded(_ count: Int) -> Int { (count + 7) / 8 * 8 }

    private static func identity(in bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    }
}
