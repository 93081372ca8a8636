import CQRCode
import SitegenSupport

/// A QR code made by libqrencode, drawn as SVG; knows nothing of sites.
public struct QRCode: Sendable {
    /// How much of the code may be lost (scuffed, folded, covered) and still be read:
    /// about 7, 15, 25 and 30 %.
    public enum Correction: Int32, Sendable {
        case low = 0, medium = 1, quartile = 2, high = 3
    }

    /// Modules each side, without the quiet zone.
    public let width: Int
    /// `width` × `width`, row by row; true for a dark module.
    public let modules: [Bool]

    /// The light margin that readers need around a code: four modules (ISO/IEC 18004).
    public static let quietZone = 4

    /// nil when libqrencode is ready; else why not, for a message that names the package.
    public static func libraryProblem() -> String? {
        var error: UnsafePointer<CChar>?
        guard sitegen_qr_open(&error) != 0 else { return nil }
        return error.map { String(cString: $0) } ?? "libqrencode would not start"
    }

    /// The code of `text`'s UTF-8 bytes, in the smallest version that holds them; nil when
    /// libqrencode is not ready or the text is too long for any version.
    public init?(_ text: String, correction: Correction) {
        var width: Int32 = 0
        guard let bytes = sitegen_qr_encode(text, correction.rawValue, &width) else { return nil }
        defer { sitegen_qr_free(bytes) }
        self.width = Int(width)
        modules = (0..<Int(width) * Int(width)).map { bytes[$0] != 0 }
    }

    public func isDark(row: Int, column: Int) -> Bool {
        modules[row * width + column]
    }

    /// The code as an SVG element: dark modules on a light square with its quiet zone,
    /// whatever the page's colours, scaled to the box it is given. Each row's runs of dark
    /// modules are one rectangle of the path. `label` is read by screen readers.
    public func svg(label: String) -> String {
        let side = width + 2 * Self.quietZone
        var path = ""
        for row in 0..<width {
            var column = 0
            while column < width {
                guard isDark(row: row, column: column) else {
                    column += 1
                    continue
                }
                let start = column
                while column < width, isDark(row: row, column: column) { column += 1 }
                path += "M\(start + Self.quietZone) \(row + Self.quietZone)h\(column - start)v1h-\(column - start)z"
            }
        }
        return "<svg class=\"qr-code\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(side) \(side)\" role=\"img\" aria-label=\"\(XML.escape(label))\" shape-rendering=\"crispEdges\">"
            + "<rect width=\"\(side)\" height=\"\(side)\" fill=\"#fff\"/><path fill=\"#000\" d=\"\(path)\"/></svg>"
    }
}
