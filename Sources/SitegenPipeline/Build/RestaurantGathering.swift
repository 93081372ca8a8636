import SitegenContent
import SitegenSupport

/// How the index gathers articles into restaurants. Articles whose restaurants share a
/// slug (`Restaurant.slug`: the id, else the name) are one family. A family with an `id`
/// is one restaurant. Otherwise its articles at one place (`Restaurant.isAtThePlace`) are
/// one branch, and an article that says nowhere is at its newest located article's; a
/// family with several branches gives each its own page, pin and title, "Tim Ho Wan
/// (Sham Shui Po)". Each restaurant is named as its newest article names it, and
/// addressed and placed as the newest that says where it is.
enum RestaurantGathering {
    struct Gathered {
        var pages: [RestaurantPage]
        /// The slug of each article's restaurant page, by the article's source path.
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
                for article in branch { gathered.slugs[article.sourcePath] = slug }
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
        // Union-find over the located articles: at one place with any of a branch's is in it.
        let located = family.indices.filter { family[$0].restaurant!.isLocated }
        guard located.count > 1 else { return [family] }
        var parent = Array(family.indices)
        func root(_ index: Int) -> Int {
            var index = index
            while parent[index] != index {
                parent[index] = parent[parent[index]]
                index = parent[index]
            }
            return index
        }
        for (position, first) in located.enumerated() {
            for second in located[(position + 1)...] where root(first) != root(second) {
                if family[first].restaurant!.isAtThePlace(of: family[second].restaurant!) { parent[root(second)] = root(first) }
            }
        }
        // The placeless go with the newest located article.
        let newestLocated = root(located[0])
        var branches: [Int: [Article]] = [:]
        var order: [Int] = []
        for index in family.indices {
            let branch = family[index].restaurant!.isLocated ? root(index) : newestLocated
            if branches[branch] == nil { order.append(branch) }
            branches[branch, default: []].append(family[index])
        }
        return order.map { branches[$0]! }
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
        return restaurants.indices.map { index in
            if let branch = restaurants[index].branch { return branch }
            let mine = parts[index]
            if !mine.isEmpty {
                for count in 1...mine.count {
                    let ending = mine.suffix(count)
                    let shared = parts.indices.contains { $0 != index && parts[$0].suffix(count).map { $0.lowercased() } == ending.map { $0.lowercased() } }
                    if !shared { return ending.joined(separator: ", ") }
                }
                return mine.joined(separator: ", ")
            }
            if let latitude = restaurants[index].latitude, let longitude = restaurants[index].longitude {
                return MapLinks(latitude: latitude, longitude: longitude, zoom: 17).latitudeText + ", " + MapLinks(latitude: latitude, longitude: longitude, zoom: 17).longitudeText
            }
            return "\(index + 1)"
        }
    }
}
