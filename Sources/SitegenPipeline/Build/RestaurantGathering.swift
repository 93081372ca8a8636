import SitegenContent
import SitegenSupport

/// How the index gathers articles into restaurants. Articles whose restaurants share a
/// slug (`Restaurant.slug`: the id, else the name) are one family. A family with an `id`
/// is one restaurant. Otherwise its articles at one place (`Restaurant.isNear`,
/// `Restaurant.sameAddress`) are one branch, and an article that says nowhere is at its
/// newest located article's; a family with several branches gives each its own page, pin
/// and title, "Tim Ho Wan (Sham Shui Po)". Each restaurant is named as its newest article names it, and
/// addressed and placed as the newest that says where it is.
enum RestaurantGathering {
    struct Gathered {
        var pages: [RestaurantPage]
        /// The slug of the restaurant page of each article of a branch, by the article's
        /// source path; any other article's is its restaurant's slug.
        var slugs: [String: String]
    }

    /// `articles`: published, newest first.
    static func gather(_ articles: [Article]) -> Gathered {
        // Each family is hashed once, for its place among the families, kept in the order
        // they were met.
        var places: [String: Int] = [:]
        var families: [[Article]] = []
        for article in articles {
            guard let restaurant = article.restaurant, RestaurantEntry.name(of: restaurant) != nil, let slug = restaurant.slug else { continue }
            if let place = places[slug] {
                families[place].append(article)
            } else {
                places[slug] = families.count
                families.append([article])
            }
        }
        var gathered = Gathered(pages: [], slugs: [:])
        // A branch's slug is its family's and its label's: never another family's.
        var taken = Set(places.keys)
        for family in families {
            let branches = branches(of: family)
            let labels: [String?] = branches.count == 1 ? [nil] : BranchLabels.make(for: branches.map(describe))
            for (branch, label) in zip(branches, labels) {
                let restaurant = describe(branch)
                var slug = restaurant.slug!
                if let label {
                    slug += "-" + Restaurant.slug(of: label)
                    var suffix = 2
                    while taken.contains(slug) {
                        slug = restaurant.slug! + "-" + Restaurant.slug(of: label) + "-\(suffix)"
                        suffix += 1
                    }
                    taken.insert(slug)
                }
                let name = RestaurantEntry.name(of: restaurant)!
                let entry = RestaurantEntry(name: label.map { "\(name) (\($0))" } ?? name, slug: slug, address: restaurant.address,
                                            latitude: restaurant.latitude, longitude: restaurant.longitude, count: branch.count)
                gathered.pages.append(RestaurantPage(entry: entry, articles: branch.map(ArticleLink.init)))
                if label != nil {
                    for article in branch { gathered.slugs[article.sourcePath] = slug }
                }
            }
        }
        gathered.pages = gathered.pages.sorted(byKey: \.entry.orderKey, by: <)
        return gathered
    }

    /// A branch as its page shows it: named as its newest article names it, and addressed,
    /// placed and told apart as the newest article that says so.
    private static func describe(_ branch: [Article]) -> Restaurant {
        let restaurants = branch.map { $0.restaurant! }
        let placed = restaurants.first(where: \.hasCoordinates)
        return Restaurant(name: restaurants[0].name, address: restaurants.lazy.compactMap(\.address).first,
                          latitude: placed?.latitude, longitude: placed?.longitude, id: restaurants[0].id,
                          branch: restaurants.lazy.compactMap(\.branch).first, slug: restaurants[0].slug)
    }

    /// A family's branches, each newest first, in the order of their newest articles.
    private static func branches(of family: [Article]) -> [[Article]] {
        guard family.count > 1, !family.contains(where: { $0.restaurant!.id != nil }) else { return [family] }
        // Each distinct place once, with the articles there: most of a family's articles
        // give the place another of them gives, and places are compared pairwise.
        var placeOf: [Int] = []
        var places: [Place] = []
        var known: [Place.Key: Int] = [:]
        for article in family {
            let restaurant = article.restaurant!
            let key = Place.Key(restaurant)
            if let place = known[key] {
                placeOf.append(place)
            } else {
                known[key] = places.count
                placeOf.append(places.count)
                places.append(Place(restaurant, key: key))
            }
        }
        let located = places.indices.filter { places[$0].isLocated }
        guard located.count > 1 else { return [family] }
        // Union-find over the places: at one place with any of a branch's is in it.
        var parent = Array(places.indices)
        func root(_ index: Int) -> Int {
            var index = index
            while parent[index] != index {
                parent[index] = parent[parent[index]]
                index = parent[index]
            }
            return index
        }
        for (position, first) in located.enumerated() {
            for second in located[(position + 1)...] where root(first) != root(second) && places[first].isAt(places[second]) {
                parent[root(second)] = root(first)
            }
        }
        // The placeless go with the newest located article.
        let newestLocated = root(placeOf.first { places[$0].isLocated }!)
        var branches: [Int: [Article]] = [:]
        var order: [Int] = []
        for (article, place) in zip(family, placeOf) {
            let branch = places[place].isLocated ? root(place) : newestLocated
            if branches[branch] == nil { order.append(branch) }
            branches[branch, default: []].append(article)
        }
        return order.map { branches[$0]! }
    }

    /// Where a restaurant says it is, worked out once for the comparisons.
    private struct Place {
        struct Key: Hashable {
            var latitude: UInt64?
            var longitude: UInt64?
            var address: String?

            init(_ restaurant: Restaurant) {
                latitude = restaurant.latitude?.bitPattern
                longitude = restaurant.longitude?.bitPattern
                address = restaurant.address
            }
        }

        let restaurant: Restaurant
        let words: [String]?

        init(_ restaurant: Restaurant, key: Key) {
            self.restaurant = restaurant
            words = restaurant.addressWords
        }

        var isLocated: Bool { restaurant.hasCoordinates || words != nil }

        func isAt(_ other: Place) -> Bool {
            if restaurant.isNear(other.restaurant) { return true }
            guard let words, let otherWords = other.words else { return false }
            return Restaurant.sameAddress(words, otherWords)
        }
    }
}

/// The words that tell a restaurant's branches apart, for their titles and slugs.
enum BranchLabels {
    /// For each branch (its newest article's restaurant): its `branch:`, else the fewest
    /// last parts of its address that no other branch's address ends with ("Sham Shui Po"
    /// from "9-11 Fuk Wing St, Sham Shui Po"), else its coordinates, else its place in order.
    static func make(for restaurants: [Restaurant]) -> [String] {
        let parts = restaurants.map { restaurant in
            (restaurant.address ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        let folded = parts.map { $0.map { $0.lowercased() } }
        return restaurants.indices.map { index in
            if let branch = restaurants[index].branch { return branch }
            let mine = parts[index]
            if !mine.isEmpty {
                for count in 1...mine.count {
                    let ending = folded[index].suffix(count)
                    let shared = folded.indices.contains { $0 != index && folded[$0].suffix(count).elementsEqual(ending) }
                    if !shared { return mine.suffix(count).joined(separator: ", ") }
                }
                return mine.joined(separator: ", ")
            }
            if let latitude = restaurants[index].latitude, let longitude = restaurants[index].longitude {
                let links = MapLinks(latitude: latitude, longitude: longitude, zoom: 17)
                return links.latitudeText + ", " + links.longitudeText
            }
            return "\(index + 1)"
        }
    }
}
