/// FNV-1a, 64 bits, as 16 hex digits: for names and marks that outlive a process or move
/// between machines (a folder's name, a hash written into a content file), so defined byte
/// by byte. `ContentHash` is the fast one, for what a build compares on one machine.
public enum StableHash {
    public static func hex(_ bytes: some Sequence<UInt8>) -> String {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            value ^= UInt64(byte)
            value &*= 0x0000_0100_0000_01B3
        }
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
