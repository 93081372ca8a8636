extension Array where Element == UInt8 {
    /// `bytes` in an array of their own, copied in one step. The build copies buffers into
    /// arrays only through here: with `Array(bytes)` in the cache's reader the compiler
    /// stopped inlining the copy into this module's `append(contentsOf:)`, the one version
    /// the linker kept for every module's appends, the templates' output among them.
    @inlinable
    public init(copying bytes: UnsafeBufferPointer<UInt8>) {
        // Not through the initializer when empty: it writes the count into the one empty
        // array all threads share (a race, if only of zeros).
        guard !bytes.isEmpty else {
            self = []
            return
        }
        self.init(unsafeUninitializedCapacity: bytes.count) { buffer, initialized in
            if let source = bytes.baseAddress { buffer.baseAddress!.initialize(from: source, count: bytes.count) }
            initialized = bytes.count
        }
    }
}
