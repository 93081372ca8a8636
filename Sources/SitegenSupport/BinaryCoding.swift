import Foundation

/// A compact, fast encoding of values in bytes (the build cache's): integers as varints,
/// strings as a length and UTF-8. Reading checks every length against what is left, so
/// damaged bytes fail to read instead of reading wrong.
@frozen
public struct BinaryWriter {
    @usableFromInline var storage: [UInt8] = []

    /// What is written so far.
    @inlinable
    public var bytes: [UInt8] { storage }

    @inlinable
    public init() {}

    /// A writer that will not grow while it writes about `capacity` bytes: growing a
    /// buffer of the large cache copies it again and again.
    @inlinable
    public init(reservingCapacity capacity: Int) {
        storage.reserveCapacity(capacity)
    }

    @inlinable
    public mutating func integer(_ value: Int) { unsigned(UInt64(bitPattern: Int64(value))) }

    @inlinable
    public mutating func unsigned(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            storage.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        storage.append(UInt8(value))
    }

    @inlinable
    public mutating func bool(_ value: Bool) { storage.append(value ? 1 : 0) }

    /// Eight bytes, little-endian: for hashes and times, which are as long as a varint
    /// would make them anyway and are read back with one load.
    @inlinable
    public mutating func word(_ value: UInt64) {
        withUnsafeBytes(of: value.littleEndian) { storage.append(contentsOf: $0) }
    }

    /// Four bytes, little-endian: for offsets in a table read by index.
    @inlinable
    public mutating func word32(_ value: UInt32) {
        withUnsafeBytes(of: value.littleEndian) { storage.append(contentsOf: $0) }
    }

    @inlinable
    public mutating func append(_ byte: UInt8) { storage.append(byte) }

    /// Bytes as they are, with no length before them: a model encoded before.
    @inlinable
    public mutating func raw(_ value: ArraySlice<UInt8>) { storage += value }

    /// `count` zero bytes.
    @inlinable
    public mutating func zeros(_ count: Int) { storage += repeatElement(0, count: count) }

    /// Forgets the first `count` bytes, once they are written out.
    @inlinable
    public mutating func removeFirst(_ count: Int) { storage.removeFirst(count) }

    /// A native string's bytes are read where they are: `withUTF8` on a `var` copy retained
    /// each string, the first touch of many a model's strings when a first build's store
    /// is written.
    @inlinable
    public mutating func string(_ value: String) {
        if value.utf8.withContiguousStorageIfAvailable({ slice($0) }) != nil { return }
        var value = value
        value.withUTF8 { slice($0) }
    }

    /// Length-prefixed bytes, read back by `BinaryReader.slice` (or `string`, for UTF-8).
    @inlinable
    public mutating func slice(_ value: UnsafeBufferPointer<UInt8>) {
        unsigned(UInt64(value.count))
        storage.append(contentsOf: value)
    }

    @inlinable
    public mutating func optional<T>(_ value: T?, _ write: (inout BinaryWriter, T) -> Void) {
        bool(value != nil)
        if let value { write(&self, value) }
    }

    @inlinable
    public mutating func array<T>(_ values: [T], _ write: (inout BinaryWriter, T) -> Void) {
        unsigned(UInt64(values.count))
        for value in values { write(&self, value) }
    }
}

/// Reads what `BinaryWriter` wrote, through a pointer into the bytes: made only by
/// `reading(_:_:)`, for as long as its body runs, without the checks of an `ArraySlice`'s
/// subscript on every field of every entry.
@frozen
public struct BinaryReader {
    public struct Corrupt: Error {
        public init() {}
    }

    /// The bytes, for the slices that share them; nil when they are not an array's.
    @usableFromInline let owner: ArraySlice<UInt8>?
    /// Where they are while the reader lives (nil when there are none).
    @usableFromInline let base: UnsafePointer<UInt8>?
    /// How many there are.
    @usableFromInline let end: Int
    /// From the first byte.
    @usableFromInline var position = 0

    /// How many bytes are read.
    @inlinable
    public var offset: Int { position }

    @inlinable
    init(owner: ArraySlice<UInt8>?, base: UnsafePointer<UInt8>?, end: Int) {
        self.owner = owner
        self.base = base
        self.end = end
    }

    /// What `body` reads from `bytes`; the reader must not outlive it.
    @inlinable
    public static func reading<Result>(_ bytes: ArraySlice<UInt8>, _ body: (inout BinaryReader) throws(Corrupt) -> Result) throws(Corrupt) -> Result {
        let outcome = bytes.withUnsafeBufferPointer { buffer -> Swift.Result<Result, Corrupt> in
            var reader = BinaryReader(owner: bytes, base: buffer.baseAddress, end: buffer.count)
            do throws(Corrupt) {
                return .success(try body(&reader))
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }

    @inlinable
    public static func reading<Result>(_ bytes: [UInt8], _ body: (inout BinaryReader) throws(Corrupt) -> Result) throws(Corrupt) -> Result {
        try reading(bytes[...], body)
    }

    /// What `body` reads from bytes in place (a mapped file), which must stay there while
    /// it runs.
    @inlinable
    public static func reading<Result>(_ bytes: UnsafeBufferPointer<UInt8>, _ body: (inout BinaryReader) throws(Corrupt) -> Result) throws(Corrupt) -> Result {
        var reader = BinaryReader(owner: nil, base: bytes.baseAddress, end: bytes.count)
        return try body(&reader)
    }

    @inlinable
    public var isAtEnd: Bool { position == end }

    @inlinable
    public mutating func unsigned() throws(Corrupt) -> UInt64 {
        // A number of one byte (most lengths) alone; longer ones up to eight bytes at once:
        // the first byte below 0x80 ends the number, and the seven low bits of each byte
        // up to it are packed together in three steps, not a byte at a time.
        if position < end, base![position] < 0x80 {
            position += 1
            return UInt64(base![position - 1])
        }
        if end - position >= 8 {
            let word = UInt64(littleEndian: UnsafeRawPointer(base! + position).loadUnaligned(as: UInt64.self))
            let stops = ~word & 0x8080_8080_8080_8080
            if stops != 0 {
                let length = (stops.trailingZeroBitCount + 1) / 8
                var value = length == 8 ? word : word & ((1 << UInt64(length * 8)) - 1)
                value = (value & 0x007F_007F_007F_007F) | ((value & 0x7F00_7F00_7F00_7F00) >> 1)
                value = (value & 0x0000_3FFF_0000_3FFF) | ((value & 0x3FFF_0000_3FFF_0000) >> 2)
                value = (value & 0x0000_0000_0FFF_FFFF) | ((value & 0x0FFF_FFFF_0000_0000) >> 4)
                position += length
                return value
            }
        }
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while position < end, shift < 64 {
            let byte = base![position]
            position += 1
            result |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return result }
            shift += 7
        }
        throw Corrupt()
    }

    @inlinable
    public mutating func integer() throws(Corrupt) -> Int { Int(Int64(bitPattern: try unsigned())) }

    @inlinable
    public mutating func word() throws(Corrupt) -> UInt64 {
        guard end - position >= 8 else { throw Corrupt() }
        defer { position += 8 }
        return UInt64(littleEndian: UnsafeRawPointer(base! + position).loadUnaligned(as: UInt64.self))
    }

    @inlinable
    public mutating func count() throws(Corrupt) -> Int {
        let value = try unsigned()
        guard value <= UInt64(end - position) else { throw Corrupt() }
        return Int(value)
    }

    @inlinable
    public mutating func bool() throws(Corrupt) -> Bool {
        guard position < end, base![position] <= 1 else { throw Corrupt() }
        position += 1
        return base![position - 1] == 1
    }

    @inlinable
    public mutating func string() throws(Corrupt) -> String {
        // Not validated as UTF-8: the cache and the model store are checksummed whole and
        // were written from Strings, and decoding repairs what could still be wrong.
        String(decoding: try bytes(), as: UTF8.self)
    }

    /// Length-prefixed bytes, in place: valid only while the reader is.
    @inlinable
    public mutating func bytes() throws(Corrupt) -> UnsafeBufferPointer<UInt8> {
        let length = try count()
        defer { position += length }
        return UnsafeBufferPointer(start: base.map { $0 + position }, count: length)
    }

    /// Steps over `expected` when the bytes that follow are exactly it.
    @inlinable
    public mutating func skip(ifNextAre expected: [UInt8]) -> Bool {
        guard end - position >= expected.count else { return false }
        let same = expected.isEmpty || expected.withUnsafeBufferPointer { memcmp(base! + position, $0.baseAddress!, expected.count) == 0 }
        if same { position += expected.count }
        return same
    }

    /// A length-prefixed run of bytes, sharing the storage of the bytes read when they are
    /// an array's, else copied.
    @inlinable
    public mutating func slice() throws(Corrupt) -> ArraySlice<UInt8> {
        let length = try count()
        defer { position += length }
        guard let owner else { return [UInt8](copying: UnsafeBufferPointer(start: base.map { $0 + position }, count: length))[...] }
        return owner[(owner.startIndex + position)..<(owner.startIndex + position + length)]
    }

    @inlinable
    public mutating func optional<T>(_ read: (inout BinaryReader) throws(Corrupt) -> T) throws(Corrupt) -> T? {
        try bool() ? try read(&self) : nil
    }

    @inlinable
    public mutating func array<T>(_ read: (inout BinaryReader) throws(Corrupt) -> T) throws(Corrupt) -> [T] {
        let count = try count()
        var values: [T] = []
        values.reserveCapacity(count)
        for _ in 0..<count { values.append(try read(&self)) }
        return values
    }
}
