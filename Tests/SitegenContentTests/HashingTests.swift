import Foundation
@testable import SitegenContent
import SitegenSupport
import SitegenYAML
import Testing

@Suite("Content hashes")
struct ContentHashTests {
    @Test func tellsApartEveryLengthAndEveryOneBitChange() {
        var generator = SystemRandomNumberGenerator()
        var seen: [UInt64: [UInt8]] = [:]
        for length in 0..<200 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            var variants = [bytes, [UInt8](repeating: 0, count: length)]
            for bit in stride(from: 0, to: length * 8, by: 7) {
                var flipped = bytes
                flipped[bit / 8] ^= 1 << UInt8(bit % 8)
                variants.append(flipped)
            }
            for variant in variants {
                let hash = ContentHash.value(variant)
                if let earlier = seen[hash] { #expect(earlier == variant) }
                seen[hash] = variant
            }
        }
        #expect(seen.count > 20_000)
        #expect(ContentHash.hex(Array("body { color: red }".utf8)).count == 8)
    }

    /// The cache's checksums, four words at a time and then one, must still see any change
    /// of one byte, wherever it falls.
    @Test func checksumsTellEveryOneByteChange() {
        var generator = SystemRandomNumberGenerator()
        for length in 0..<160 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let checksum = Checksum.value(bytes[...])
            for place in 0..<length {
                var changed = bytes
                changed[place] ^= UInt8.random(in: 1...255, using: &generator)
                #expect(Checksum.value(changed[...]) != checksum, "length \(length), byte \(place)")
            }
            #expect(Checksum.value(bytes[...] + [0]) != checksum)
        }
    }
}

@Suite("Page fingerprints")
struct FingerprintTests {
    private func fingerprint(_ parts: [String]) -> UInt64 {
        var fingerprint = Fingerprint()
        for part in parts { fingerprint.add(part) }
        return fingerprint.value
    }

    @Test func tellsApartWhereValuesEndAndEveryOneBitChange() {
        var seen: [UInt64: [String]] = [:]
        func note(_ parts: [String]) {
            let value = fingerprint(parts)
            if let earlier = seen[value] { #expect(earlier == parts) }
            seen[value] = parts
        }
        for length in 0..<40 {
            let text = String((0..<length).map { Character(UnicodeScalar(UInt8(97 + $0 % 26))) })
            // Every split of the text into two values, and every one-bit change of it.
            for cut in 0...length {
                note([String(text.prefix(cut)), String(text.dropFirst(cut))])
            }
            for bit in 0..<(length * 7) {
                var bytes = Array(text.utf8)
                bytes[bit / 7] ^= 1 << UInt8(bit % 7)
                note([String(decoding: bytes, as: UTF8.self)])
            }
        }
        #expect(seen.count > 5_000)
        var numbers = Fingerprint()
        numbers.add(1)
        var other = Fingerprint()
        other.add(2)
        #expect(numbers.value != other.value)
    }
}
