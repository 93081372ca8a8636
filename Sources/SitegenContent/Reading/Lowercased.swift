extension String {
    /// `lowercased()`, made byte by byte for ASCII letters, which is all that changes in
    /// nearly every name of a restaurant, tag or meal (the others, CJK above all, have no
    /// lowercase of their own): the standard library's costs thousands of instructions for
    /// each name, and there is one for every article of a large site.
    public var lowercasedBytewise: String {
        var text = self
        let lowered: String? = text.withUTF8 { bytes in
            var changes = false
            var ascii = true
            for byte in bytes {
                if byte >= 0x80 { ascii = false } else if (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) { changes = true }
            }
            // A scalar beyond ASCII is kept only when it is its own lowercase, as
            // `lowercased()` maps each scalar on its own.
            guard ascii || !unicodeScalars.contains(where: { !$0.isASCII && !$0.properties.lowercaseMapping.unicodeScalars.elementsEqual(CollectionOfOne($0)) })
            else { return nil }
            guard changes else { return self }
            return String(unsafeUninitializedCapacity: bytes.count) { buffer in
                for (index, byte) in bytes.enumerated() {
                    buffer[index] = (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
                }
                return bytes.count
            }
        }
        return lowered ?? lowercased()
    }
}
