import Foundation
import SitegenSupport

/// Links to openstreetmap.org for a point: the official embed with a pin, a larger map,
/// and directions to it.
struct MapLinks: Sendable {
    var latitude: Double
    var longitude: Double
    var zoom: Int

    /// The embed is about 640 × 320 CSS pixels; 256-pixel tiles cover 360° at zoom 0.
    static let embedWidth = 640.0
    static let embedHeight = 320.0

    var boundingBox: (west: Double, south: Double, east: Double, north: Double) {
        let degreesPerPixel = 360.0 / (256.0 * pow(2.0, Double(zoom)))
        let halfWidth = degreesPerPixel * MapLinks.embedWidth / 2
        let halfHeight = degreesPerPixel * MapLinks.embedHeight / 2 * cos(latitude * .pi / 180)
        return (max(longitude - halfWidth, -180), max(latitude - halfHeight, -90), min(longitude + halfWidth, 180), min(latitude + halfHeight, 90))
    }

    var embedURL: String {
        let box = boundingBox
        let bbox = [box.west, box.south, box.east, box.north].map(MapLinks.coordinate).joined(separator: "%2C")
        return "https://www.openstreetmap.org/export/embed.html?bbox=\(bbox)&layer=mapnik&marker=\(MapLinks.coordinate(latitude))%2C\(MapLinks.coordinate(longitude))"
    }

    var largerMapURL: String {
        let lat = MapLinks.coordinate(latitude)
        let lon = MapLinks.coordinate(longitude)
        return "https://www.openstreetmap.org/?mlat=\(lat)&mlon=\(lon)#map=\(zoom)/\(lat)/\(lon)"
    }

    var directionsURL: String {
        "https://www.openstreetmap.org/directions?route=%3B\(MapLinks.coordinate(latitude))%2C\(MapLinks.coordinate(longitude))"
    }

    /// Six decimals (about 10 cm), written the same on every machine: what "%.6f" prints
    /// (the exact binary value rounded half to even), without Foundation's formatter, which
    /// cost more than the rest of an article's map.
    static func coordinate(_ value: Double) -> String {
        guard value.isNormal, value.magnitude < 1e9 else {
            return value == 0 ? (value.sign == .minus ? "-0.000000" : "0.000000") : String(format: "%.6f", value)
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
        let fraction = String(micro % 1_000_000)
        return (value.sign == .minus ? "-" : "") + String(micro / 1_000_000) + "." + String(repeating: "0", count: 6 - fraction.count) + fraction
    }
}

/// JSON text that is safe inside an HTML `<script>` element: no value can close it.
enum JSONText {
    static func string(_ text: String) -> String {
        JSONString.quote(text)
    }

    static func number(_ value: Double) -> String {
        MapLinks.coordinate(value)
    }
}
