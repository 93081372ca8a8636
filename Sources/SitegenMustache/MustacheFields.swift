/// A handful of named values, for the small records a view hands to templates (an image's
/// URL and size, a link and its label).
///
/// Names are compared in order instead of hashed: a record of a few fields is made and
/// read several times per page, and hashing each name cost more than comparing it with
/// the others. Give first the names templates read most. A dictionary remains the value
/// for data of any size.
public struct MustacheFields: MustacheObject, ExpressibleByDictionaryLiteral {
    /// The names and values in the order given: the array a record is made from, kept as it
    /// is unless a name comes twice, not copied into an array of names and one of values:
    /// a site makes one for every card, image and link of its pages.
    public private(set) var entries: [(String, MustacheValue)]

    /// A name given twice keeps its first value.
    public init(dictionaryLiteral elements: (String, MustacheValue)...) {
        self.init(elements)
    }

    /// A record with room for `capacity` fields, set one by one: a record made from a literal
    /// of its first fields and grown was made again at each field added, and a site makes
    /// one for every card, image and page.
    public init(reservingCapacity capacity: Int) {
        entries = []
        entries.reserveCapacity(capacity)
    }

    /// A name given twice keeps its first value.
    public init(_ entries: [(String, MustacheValue)]) {
        let repeats = entries.indices.contains { index in entries[..<index].contains { $0.0 == entries[index].0 } }
        guard repeats else {
            self.entries = entries
            return
        }
        var kept: [(String, MustacheValue)] = []
        kept.reserveCapacity(entries.count)
        for entry in entries where !kept.contains(where: { $0.0 == entry.0 }) { kept.append(entry) }
        self.entries = kept
    }

    /// The value of `name`; setting one replaces it, setting nil removes it.
    public subscript(name: String) -> MustacheValue? {
        get { entries.firstIndex { $0.0 == name }.map { entries[$0].1 } }
        set {
            switch (entries.firstIndex { $0.0 == name }, newValue) {
            case (let place?, let value?):
                entries[place].1 = value
            case (let place?, nil):
                entries.remove(at: place)
            case (nil, let value?):
                entries.append((name, value))
            case (nil, nil):
                break
            }
        }
    }

    public var count: Int { entries.count }

    public func mustacheMember(_ key: String) -> MustacheValue? {
        self[key]
    }
}
