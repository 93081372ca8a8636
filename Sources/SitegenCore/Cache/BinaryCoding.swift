import Foundation

/// A compact, fast encoding for the build cache: integers as varints, strings as a
/// length and UTF-8. Reading checks every length against what is left, so a corrupt
/// cache fails to read instead of reading wrong.
struct BinaryWriter {
    private(set) var bytes: [UInt8] = []

    init() {}

    /// A writer that will not grow while it writes about `capacity` bytes: growing a
    /// buffer of the large cache copies it again and again.
    init(reservingCapacity capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    mutating func integer(_ value: Int) { unsigned(UInt64(bitPattern: Int64(value))) }

    mutating func unsigned(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    mutating func bool(_ value: Bool) { bytes.append(value ? 1 : 0) }

    /// Eight bytes, little-endian: for hashes and times, which are as long as a varint
    /// would make them anyway and are read back with one load.
    mutating func word(_ value: UInt64) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func append(_ byte: UInt8) { bytes.append(byte) }

    /// Bytes as they are, with no length before them: a model encoded before.
    mutating func raw(_ value: ArraySlice<UInt8>) { bytes += value }

    /// `count` zero bytes.
    mutating func zeros(_ count: Int) { bytes += repeatElement(0, count: count) }

    /// Forgets the first `count` bytes, once they are written out.
    mutating func removeFirst(_ count: Int) { bytes.removeFirst(count) }

    mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { buffer in
            unsigned(UInt64(buffer.count))
            bytes.append(contentsOf: buffer)
        }
    }

    /// Length-prefixed bytes, read back by `BinaryReader.slice` (or `string`, for UTF-8).
    mutating func slice(_ value: UnsafeBufferPointer<UInt8>) {
        unsigned(UInt64(value.count))
        bytes.append(contentsOf: value)
    }

    mutating func optional<T>(_ value: T?, _ write: (inout BinaryWriter, T) -> Void) {
        bool(value != nil)
        if let value { write(&self, value) }
    }

    mutating func array<T>(_ values: [T], _ write: (inout BinaryWriter, T) -> Void) {
        unsigned(UInt64(values.count))
        for value in values { write(&self, value) }
    }
}

struct BinaryReader {
    struct Corrupt: Error {}

    private let bytes: ArraySlice<UInt8>
    private var offset: Int

    init(_ bytes: [UInt8]) {
        self.bytes = bytes[...]
        offset = 0
    }

    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        offset = bytes.startIndex
    }

    var isAtEnd: Bool { offset == bytes.endIndex }

    mutating func unsigned() throws(Corrupt) -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard offset < bytes.endIndex, shift < 64 else { throw Corrupt() }
            let byte = bytes[offset]
            offset += 1
            result |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return result }
            shift += 7
        }
    }

    mutating func integer() throws(Corrupt) -> Int { Int(Int64(bitPattern: try unsigned())) }

    mutating func word() throws(Corrupt) -> UInt64 {
        guard bytes.endIndex - offset >= 8 else { throw Corrupt() }
        let start = offset - bytes.startIndex
        offset += 8
        return bytes.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: start, as: UInt64.self)) }
    }

    mutating func count() throws(Corrupt) -> Int {
        let value = try unsigned()
        guard value <= UInt64(bytes.endIndex - offset) else { throw Corrupt() }
        return Int(value)
    }

    mutating func bool() throws(Corrupt) -> Bool {
        guard offset < bytes.endIndex, bytes[offset] <= 1 else { throw Corrupt() }
        offset += 1
        return bytes[offset - 1] == 1
    }

    mutating func string() throws(Corrupt) -> String {
        let length = try count()
        let start = offset - bytes.startIndex
        // Not validated as UTF-8: the cache and the model store are checksummed whole and
        // were written from Strings, and decoding repairs what could still be wrong.
        // Validating (a generic call per string) was a twentieth of a cached rebuild.
        let text = bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[start..<(start + length)]), as: UTF8.self) }
        offset += length
        return text
    }

    /// Steps over `expected` when the bytes that follow are exactly it.
    mutating func skip(ifNextAre expected: [UInt8]) -> Bool {
        guard bytes.endIndex - offset >= expected.count else { return false }
        let start = offset - bytes.startIndex
        let same = bytes.withUnsafeBufferPointer { buffer in
            expected.withUnsafeBufferPointer { memcmp(buffer.baseAddress! + start, $0.baseAddress!, expected.count) == 0 }
        }
        if same { offset += expected.count }
        return same
    }

    /// A length-prefixed run of bytes, sharing the cache's storage.
    mutating func slice() throws(Corrupt) -> ArraySlice<UInt8> {
        let length = try count()
        defer { offset += length }
        return bytes[offset..<(offset + length)]
    }

    mutating func optional<T>(_ read: (inout BinaryReader) throws(Corrupt) -> T) throws(Corrupt) -> T? {
        try bool() ? try read(&self) : nil
    }

    mutating func array<T>(_ read: (inout BinaryReader) throws(Corrupt) -> T) throws(Corrupt) -> [T] {
        let count = try count()
        var values: [T] = []
        values.reserveCapacity(count)
        for _ in 0..<count { values.append(try read(&self)) }
        return values
    }
}
