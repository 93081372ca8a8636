/// Hashes of file contents.
public enum ContentHash {
    /// 64 bits of every source file, template and page, 16 bytes per multiply (the
    /// multiply-and-fold of wyhash), not FNV-1a's one dependent multiply per byte: a build
    /// hashes everything it reads and writes. Kept only in the build cache, on this machine.
    public static func value(_ bytes: [UInt8]) -> UInt64 {
        bytes.withUnsafeBytes(value)
    }

    public static func value(_ raw: UnsafeRawBufferPointer) -> UInt64 {
        let secrets: (UInt64, UInt64, UInt64, UInt64) = (0xa076_1d64_78bd_642f, 0xe703_7ed1_a0b4_28db, 0x8ebc_6af0_9c88_c6e3, 0x5899_65cc_7537_4cc3)
        var seed = secrets.0 ^ UInt64(raw.count)
        var offset = 0
        // Two lanes, 32 bytes a step, while there are that many: the multiplies of one
        // lane do not wait for the other's.
        if raw.count >= 64 {
            var other = secrets.2 ^ seed
            while offset + 32 <= raw.count {
                let words = (raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self), raw.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self),
                             raw.loadUnaligned(fromByteOffset: offset + 16, as: UInt64.self), raw.loadUnaligned(fromByteOffset: offset + 24, as: UInt64.self))
                seed = fold(UInt64(littleEndian: words.0) ^ secrets.1, UInt64(littleEndian: words.1) ^ seed)
                other = fold(UInt64(littleEndian: words.2) ^ secrets.3, UInt64(littleEndian: words.3) ^ other)
                offset += 32
            }
            seed ^= other
        }
        while offset + 16 <= raw.count {
            let low = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            let high = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self))
            seed = fold(low ^ secrets.1, high ^ seed)
            offset += 16
        }
        var tail: (UInt64, UInt64) = (0, 0)
        for index in offset..<raw.count {
            let shift = UInt64((index - offset) % 8 * 8)
            if index - offset < 8 { tail.0 |= UInt64(raw[index]) << shift } else { tail.1 |= UInt64(raw[index]) << shift }
        }
        return fold(fold(tail.0 ^ secrets.2, tail.1 ^ seed) ^ secrets.3, UInt64(raw.count) ^ secrets.1)
    }

    private static func fold(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let product = a.multipliedFullWidth(by: b)
        return product.high ^ product.low
    }

    /// Eight hex digits that name a version of a file in URLs and cache names: FNV-1a,
    /// the same on every machine and in every release (a URL must not change with sitegen).
    public static func hex(_ bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        let text = String(hash, radix: 16)
        let padded = String(repeating: "0", count: max(0, 16 - text.count)) + text
        return String(padded.prefix(8))
    }
}

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

/// A fast checksum over whole 8-byte words, for telling a damaged cache file.
public enum Checksum {
    /// Of one piece (a model, a cache file): four words at a time, each into a lane of its
    /// own, so that the multiplies do not wait for each other: every full build checksums
    /// every model.
    @inlinable
    public static func value(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.withUnsafeBytes { value($0) }
    }

    @inlinable
    public static func value(_ raw: UnsafeRawBufferPointer) -> UInt64 {
        let count = raw.count
        var lanes = (0x9E37_79B9_7F4A_7C15 ^ UInt64(count), 0x6A09_E667_F3BC_C908 as UInt64, 0xBB67_AE85_84CA_A73B as UInt64, 0x3C6E_F372_FE94_F82B as UInt64)
        var offset = 0
        while offset + 32 <= count {
            lanes.0 = mix(lanes.0, raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            lanes.1 = mix(lanes.1, raw.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self))
            lanes.2 = mix(lanes.2, raw.loadUnaligned(fromByteOffset: offset + 16, as: UInt64.self))
            lanes.3 = mix(lanes.3, raw.loadUnaligned(fromByteOffset: offset + 24, as: UInt64.self))
            offset += 32
        }
        var hash = mix(mix(mix(lanes.0, lanes.1), lanes.2), lanes.3)
        while offset + 8 <= count {
            hash = mix(hash, raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            offset += 8
        }
        while offset < count {
            hash = (hash ^ UInt64(raw[offset])) &* 0xC4CE_B9FE_1A85_EC53
            offset += 1
        }
        return hash ^ (hash >> 32)
    }

    /// A bijection of `hash` for any `word`, and of `word` for any `hash`: one word that
    /// differs always changes the result.
    @usableFromInline @inline(__always)
    static func mix(_ hash: UInt64, _ word: UInt64) -> UInt64 {
        let mixed = (hash ^ word) &* 0xFF51_AFD7_ED55_8CCD
        return mixed ^ (mixed >> 29)
    }
}
