import Foundation
import SitegenMarkdown
import SitegenSupport
import SitegenYAML

extension String {
    /// Percent-encodes what may not stand in a URL path; `/` stays.
    public var urlPathEncoded: String {
        // Over the bytes in place (a String's UTF-8 view checks its storage at every byte):
        // every link of every page is made here. Nearly every path (a slug) needs no
        // escape and is returned as it is.
        var text = self
        return text.withUTF8 { bytes -> String in
            guard !bytes.allSatisfy(String.staysInURLPath) else { return self }
            let hex: StaticString = "0123456789ABCDEF"
            var escaped: [UInt8] = []
            escaped.reserveCapacity(bytes.count * 3)
            for byte in bytes {
                if String.staysInURLPath(byte) {
                    escaped.append(byte)
                } else {
                    escaped.append(UInt8(ascii: "%"))
                    escaped.append(hex.utf8Start[Int(byte >> 4)])
                    escaped.append(hex.utf8Start[Int(byte & 0x0F)])
                }
            }
            return String(decoding: escaped, as: UTF8.self)
        }
    }

    private static func staysInURLPath(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
            true
        default:
            false
        }
    }
}
