/// Tests of the eight bytes of a word at once, for scanners that pass runs of plain text
/// whole (HTML escaping, JSON strings). Each answers the high bit of the lanes it found;
/// whether there is any such lane is exact, though a lane above a found one may be marked
/// too (a borrow), so only "none" or "some" is to be read from it.
public enum ByteLanes {
    public static let ones: UInt64 = 0x0101_0101_0101_0101
    public static let highs: UInt64 = 0x8080_8080_8080_8080

    /// Lanes of `word` equal to `byte`: those that are zero after the XOR.
    @inlinable @inline(__always)
    public static func equal(to byte: UInt8, in word: UInt64) -> UInt64 {
        let difference = word ^ (ones &* UInt64(byte))
        return (difference &- ones) & ~difference & highs
    }

    /// Lanes of `word` below `bound`, which must be at most 128.
    @inlinable @inline(__always)
    public static func below(_ bound: UInt8, in word: UInt64) -> UInt64 {
        (word &- ones &* UInt64(bound)) & ~word & highs
    }

    /// Lanes of `word` past ASCII.
    @inlinable @inline(__always)
    public static func pastASCII(in word: UInt64) -> UInt64 {
        word & highs
    }
}
