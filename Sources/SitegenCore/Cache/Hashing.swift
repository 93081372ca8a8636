import Foundation
import SitegenContent
import SitegenPlatform
import SitegenSupport

/// A fast checksum over whole 8-byte words, for telling a damaged cache file.
enum Checksum {
    /// Of one piece (a model, a cache file): four words at a time, each into a lane of its
    /// own, so that the multiplies do not wait for each other: every full build checksums
    /// every model.
    static func value(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.withUnsafeBytes { value($0) }
    }

    static func value(_ raw: UnsafeRawBufferPointer) -> UInt64 {
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
    @inline(__always)
    private static func mix(_ hash: UInt64, _ word: UInt64) -> UInt64 {
        let mixed = (hash ^ word) &* 0xFF51_AFD7_ED55_8CCD
        return mixed ^ (mixed >> 29)
    }
}
