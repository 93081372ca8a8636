/// A small random number generator of the tests' own (SplitMix64), so that a seed gives
/// the same series on every machine and toolchain and a failing case can be run again.
public struct SplitMix: RandomNumberGenerator, Sendable {
    /// The seed the series started from, for a failure to name.
    public let seed: UInt64
    private var state: UInt64

    public init(seed: UInt64) {
        self.seed = seed
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
