/// Several values folded into 64 bits, for fingerprints of what a page shows, a word at
/// a time: a rebuild fingerprints every page of the site from dozens of values each, and
/// FNV-1a's multiply per byte would be most of that.
public struct Fingerprint: Sendable {
    @usableFromInline var state: UInt64 = 0xcbf2_9ce4_8422_2325

    public var value: UInt64 { state }

    @inlinable
    public init() {}

    /// Each step is a bijection of the state, so one differing word always changes it.
    @inlinable
    mutating func mix(_ word: UInt64) {
        state = (state ^ word) &* 0x9E37_79B9_7F4A_7C15
        state ^= state >> 32
    }

    @inlinable
    public mutating func add(_ bytes: UnsafeRawBufferPointer) {
        var offset = 0
        while offset + 8 <= bytes.count {
            mix(UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
            offset += 8
        }
        var tail: UInt64 = 0
        for index in offset..<bytes.count {
            tail |= UInt64(bytes[index]) << UInt64((index - offset) * 8)
        }
        // The length goes into the last word's free top byte: "ab" then "c" and "a" then
        // "bc" must differ.
        mix(tail | UInt64(truncatingIfNeeded: bytes.count) << 56)
    }

    @inlinable
    public mutating func add(_ bytes: [UInt8]) { bytes.withUnsafeBytes { add($0) } }

    @inlinable
    public mutating func add(_ text: String) {
        var text = text
        text.withUTF8 { add(UnsafeRawBufferPointer($0)) }
    }

    @inlinable
    public mutating func add(_ number: UInt64) { mix(number) }

    @inlinable
    public mutating func add(_ number: Int) { add(UInt64(bitPattern: Int64(number))) }
}
