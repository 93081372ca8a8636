import Foundation
import SitegenContent
import SitegenSupport

/// Links to openstreetmap.org for a point: the official embed with a pin, a larger map,
/// and directions to it.
public struct MapLinks: Sendable {
    public var latitude: Double
    public var longitude: Double
    public var zoom: Int
    /// The point as every link writes it, made once: an article's map has three links.
    public let latitudeText: String
    public let longitudeText: String

    public init(latitude: Double, longitude: Double, zoom: Int) {
        self.latitude = latitude
        self.longitude = longitude
        self.zoom = zoom
        latitudeText = MapLinks.coordinate(latitude)
        longitudeText = MapLinks.coordinate(longitude)
    }

    /// The embed is about 640 × 320 CSS pixels; 256-pixel tiles cover 360° at zoom 0.
    public static let embedWidth = 640.0
    public static let embedHeight = 320.0

    public var boundingBox: (west: Double, south: Double, east: Double, north: Double) {
        let degreesPerPixel = 360.0 / (256.0 * pow(2.0, Double(zoom)))
        let halfWidth = degreesPerPixel * MapLinks.embedWidth / 2
        let halfHeight = degreesPerPixel * MapLinks.embedHeight / 2 * cos(latitude * .pi / 180)
        return (max(longitude - halfWidth, -180), max(latitude - halfHeight, -90), min(longitude + halfWidth, 180), min(latitude + halfHeight, 90))
    }

    public var embedURL: String {
        let box = boundingBox
        // Into one buffer: every article with a map has one, and a String per corner and
        // per interpolation cost more than the corners' arithmetic.
        var url: [UInt8] = []
        url.reserveCapacity(160)
        url.append(contentsOf: "https://www.openstreetmap.org/export/embed.html?bbox=".utf8)
        for (place, corner) in [box.west, box.south, box.east, box.north].enumerated() {
            if place > 0 { url.append(contentsOf: "%2C".utf8) }
            MapLinks.appendCoordinate(corner, to: &url)
        }
        url.append(contentsOf: "&layer=mapnik&marker=".utf8)
        url.append(contentsOf: latitudeText.utf8)
        url.append(contentsOf: "%2C".utf8)
        url.append(contentsOf: longitudeText.utf8)
        return String(decoding: url, as: UTF8.self)
    }

    public var largerMapURL: String {
        joined(["https://www.openstreetmap.org/?mlat=", latitudeText, "&mlon=", longitudeText, "#map=", String(zoom), "/", latitudeText, "/", longitudeText])
    }

    public var directionsURL: String {
        joined(["https://www.openstreetmap.org/directions?route=%3B", latitudeText, "%2C", longitudeText])
    }

    /// `parts` in one buffer of their length: an interpolation grows its String part by
    /// part, and every restaurant's links are made for its article and its list pages.
    private func joined(_ parts: [String]) -> String {
        var url: [UInt8] = []
        url.reserveCapacity(parts.reduce(0) { $0 + $1.utf8.count })
        for part in parts { url.append(contentsOf: part.utf8) }
        return String(decoding: url, as: UTF8.self)
    }

    /// Six decimals (about 10 cm), written the same on every machine: what "%.6f" prints
    /// (the exact binary value rounded half to even), without Foundation's formatter, which
    /// cost more than the rest of an article's map.
    public static func coordinate(_ value: Double) -> String {
        var digits: [UInt8] = []
        digits.reserveCapacity(20)
        appendCoordinate(value, to: &digits)
        return String(decoding: digits, as: UTF8.self)
    }

    /// `coordinate(value)`, appended to `digits`.
    public static func appendCoordinate(_ value: Double, to digits: inout [UInt8]) {
        guard value.isNormal, value.magnitude < 1e9 else {
            digits.append(contentsOf: (value == 0 ? (value.sign == .minus ? "-0.000000" : "0.000000") : String(format: "%.6f", value)).utf8)
            return
        }
        // value = significand × 2^-shift exactly, with shift > 0 below 2^52.
        let significand = UInt128(value.significandBitPattern | (1 << 52))
        let shift = 52 - Int(value.exponent)
        let scaled = significand * 1_000_000
        var micro: UInt128 = 0
        if shift < 100 {
            micro = scaled >> shift
            let remainder = scaled & ((1 << shift) - 1)
            let half: UInt128 = 1 << (shift - 1)
            if remainder > half || (remainder == half && micro & 1 == 1) { micro += 1 }
        }
        // Written from the end into a buffer on the stack, then appended at once, rather
        // than a String per part or a digit at a time with each append checking the
        // array's room.
        var whole = UInt64(micro / 1_000_000)
        var fraction = UInt64(micro % 1_000_000)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { buffer in
            // At most a sign, ten digits, a point and six decimals.
            var start = buffer.count
            for _ in 0..<6 {
                start -= 1
                buffer[start] = UInt8(ascii: "0") + UInt8(fraction % 10)
                fraction /= 10
            }
            start -= 1
            buffer[start] = UInt8(ascii: ".")
            repeat {
                start -= 1
                buffer[start] = UInt8(ascii: "0") + UInt8(whole % 10)
                whole /= 10
            } while whole > 0
            if value.sign == .minus {
                start -= 1
                buffer[start] = UInt8(ascii: "-")
            }
            digits.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[start...]))
        }
    }
}

