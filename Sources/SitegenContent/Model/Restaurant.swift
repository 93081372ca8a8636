import Foundation
import SitegenSupport
import SitegenYAML

/// An article's `restaurant:`, as written. Which restaurant page it is on is the index's
/// to say: articles that name one restaurant at two places are about two branches.
public struct Restaurant: Sendable, Hashable {
    public let name: String?
    public let address: String?
    public var latitude: Double?
    public var longitude: Double?
    /// `restaurant.id`: articles with one id are about one restaurant, whatever their
    /// names and addresses.
    public let id: String?
    /// `restaurant.branch`: what tells this branch from the restaurant's others.
    public let branch: String?
    /// The restaurant's family: its `id`, else the slug of its name (its address when it has
    /// none), so that "Kam Wah Café" and "kam wah cafe" are one restaurant; nil when it has
    /// none of them. A family at one place has its page at `/restaurants/<slug>/`.
    public let slug: String?

    public var hasCoordinates: Bool { latitude != nil && longitude != nil }

    public init(name: String? = nil, address: String? = nil, latitude: Double? = nil, longitude: Double? = nil, id: String? = nil, branch: String? = nil,
                memo: ReadingMemo? = nil) {
        self.init(name: name, address: address, latitude: latitude, longitude: longitude, id: id, branch: branch,
                  slug: id ?? (name ?? address).map { Restaurant.slug(of: $0, memo: memo) })
    }

    public init(name: String?, address: String?, latitude: Double?, longitude: Double?, id: String? = nil, branch: String? = nil, slug: String?) {
        self.name = name
        self.address = address
        self.latitude = latitude
        self.longitude = longitude
        self.id = id
        self.branch = branch
        self.slug = slug
    }

    /// The slug of a restaurant called `name`; a name with no letter or digit ("!!!") is
    /// told by a hash of it instead.
    public static func slug(of name: String, memo: ReadingMemo? = nil) -> String {
        if let slug = Slug(making: name, memo: memo) { return slug.text }
        var print = Fingerprint()
        print.add(Array(name.lowercasedBytewise.utf8))
        return "restaurant-" + String(String(print.value, radix: 16).suffix(8))
    }

    /// Whether both have coordinates, less than 150 m apart (a mall's two entrances, two
    /// readings of one phone): one place, as is one address (`sameAddress`).
    public func isNear(_ other: Restaurant) -> Bool {
        guard let latitude, let longitude, let otherLatitude = other.latitude, let otherLongitude = other.longitude else { return false }
        let north = (latitude - otherLatitude) * 110_574
        let east = (longitude - otherLongitude) * 111_320 * cos((latitude + otherLatitude) / 2 * .pi / 180)
        return north * north + east * east < 150 * 150
    }

    /// The words of the address, lowercased, with the usual abbreviations written out:
    /// "9-11 Fuk Wing St." and "9–11 fuk wing street" are one address.
    public var addressWords: [String]? {
        guard let address else { return nil }
        // Scalar by scalar, ASCII lowercased in place: every restaurant of a large site has
        // its address read so, and Character's properties cost ten times as much.
        var words: [String] = []
        var word = String.UnicodeScalarView()
        func end() {
            guard !word.isEmpty else { return }
            let text = String(word)
            words.append(Restaurant.abbreviations[text] ?? text)
            word = String.UnicodeScalarView()
        }
        for scalar in address.unicodeScalars {
            if scalar.isASCII {
                switch scalar.value {
                case 0x30...0x39, 0x61...0x7A: word.append(scalar)
                case 0x41...0x5A: word.append(Unicode.Scalar(scalar.value + 0x20)!)
                default: end()
                }
            } else if scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
                word.append(contentsOf: scalar.properties.lowercaseMapping.unicodeScalars)
            } else {
                end()
            }
        }
        end()
        return words.isEmpty ? nil : words
    }

    private static let abbreviations = ["st": "street", "rd": "road", "ave": "avenue", "av": "avenue", "blvd": "boulevard", "ln": "lane",
                                        "dr": "drive", "ct": "court", "pl": "place", "sq": "square", "hwy": "highway", "bldg": "building",
                                        "ctr": "centre", "center": "centre", "fl": "floor", "flr": "floor"]

    /// One address, written alike (`addressWords`), or one written in full and the other
    /// in part ("47 Bute Street" in "G/F, 47 Bute Street, Mong Kok"): three words or more
    /// of it, a number among them, so that "Central" alone joins nothing.
    public static func sameAddress(_ first: [String], _ second: [String]) -> Bool {
        if first == second { return true }
        let (short, long) = first.count < second.count ? (first, second) : (second, first)
        guard short.count >= 3, short.contains(where: { $0.contains(where: \.isNumber) }) else { return false }
        return (0...(long.count - short.count)).contains { long[$0..<($0 + short.count)].elementsEqual(short) }
    }

    public static let keys = KeyTable([
        ContentKey("name", "text", default: "none", "The restaurant's name; articles whose names make the same slug, at one place, are about one restaurant, and at several places about its branches.", example: "name: Toast Box"),
        ContentKey("address", "text", default: "none", "Its address.", example: "address: G/F, JD Mall, 233-239 Nathan Rd, Jordan"),
        ContentKey("lat", "a number from -90 to 90", default: "none", "Its latitude; give `lat` and `lon` together or not at all.", example: "lat: 22.304865"),
        ContentKey("lon", "a number from -180 to 180", default: "none", "Its longitude.", example: "lon: 114.171386"),
        ContentKey("id", "lowercase letters, digits and hyphens", default: "none", "Which restaurant it is, when its name and place do not say: articles with one id are one restaurant at `/restaurants/<id>/`, whatever their names and addresses. Give each branch its own id to keep them apart on purpose.", example: "id: tim-ho-wan-ifc"),
        ContentKey("branch", "text", default: "the part of the address that tells the branches apart", "What tells this branch from the restaurant's others, in its title: \"Tim Ho Wan (IFC Mall)\".", example: "branch: IFC Mall"),
    ])

    /// Reads `restaurant:` of an article's front matter.
    public init(fields: FieldReader) {
        let name = fields.optionalText("name", within: .heading)
        let address = fields.optional("address", String.self)
        let id = fields.optional("id", Slug.self)?.text
        let branch = fields.optionalText("branch")
        let latitude = fields.optional("lat", Number.self)
        let longitude = fields.optional("lon", Number.self)
        // Each converted once: a conversion goes through an NSDecimalNumber.
        let degrees = (latitude: latitude?.doubleValue, longitude: longitude?.doubleValue)
        if let latitude, let value = degrees.latitude, !(-90...90).contains(value) {
            fields.log.error(at: fields.node("lat")!.location, "'restaurant.lat' must be a latitude from -90 to 90, found '\(latitude.text)'")
        }
        if let longitude, let value = degrees.longitude, !(-180...180).contains(value) {
            fields.log.error(at: fields.node("lon")!.location, "'restaurant.lon' must be a longitude from -180 to 180, found '\(longitude.text)'")
        }
        var placed = (latitude: Double?.none, longitude: Double?.none)
        switch (fields.node("lat") != nil, fields.node("lon") != nil) {
        case (true, false):
            fields.log.error(at: fields.keyLocation("lat"), "'restaurant.lat' is given without 'restaurant.lon': give both or neither")
        case (false, true):
            fields.log.error(at: fields.keyLocation("lon"), "'restaurant.lon' is given without 'restaurant.lat': give both or neither")
        default:
            placed = degrees
        }
        self.init(name: name, address: address, latitude: placed.latitude, longitude: placed.longitude, id: id, branch: branch, memo: fields.memo)
    }
}
