/// A handful of named values, for the small records a view hands to templates (an image's
/// URL and size, a link and its label).
///
/// Names are compared in order instead of hashed: a record of a few fields is made and
/// read several times per page, and hashing each name cost more than comparing it with
/// the others. Give first the names templates read most. A dictionary remains the value
/// for data of any size.
public struct MustacheFields: MustacheObject, ExpressibleByDictionaryLiteral {
    /// Kept apart, so that a search compares names without copying values.
    public private(set) var names: [String]
    public private(set) var values: [MustacheValue]

    /// A name given twice keeps its first value.
    public init(dictionaryLiteral elements: (String, MustacheValue)...) {
        self.init(elements)
    }

    /// A name given twice keeps its first value.
    public init(_ entries: [(String, MustacheValue)]) {
        names = []
        values = []
        names.reserveCapacity(entries.count)
        values.reserveCapacity(entries.count)
        for (name, value) in entries where !names.contains(name) {
            names.append(name)
            values.append(value)
        }
    }

    /// The value of `name`; setting one replaces it, setting nil removes it.
    public subscript(name: String) -> MustacheValue? {
        get { names.firstIndex(of: name).map { values[$0] } }
        set {
            switch (names.firstIndex(of: name), newValue) {
            case (let place?, let value?):
                values[place] = value
            case (let place?, nil):
                names.remove(at: place)
                values.remove(at: place)
            case (nil, let value?):
                names.append(name)
                values.append(value)
            case (nil, nil):
                break
            }
        }
    }

    public var count: Int { names.count }

    public func mustacheMember(_ key: String) -> MustacheValue? {
        self[key]
    }
}

extension MustacheValue {
    /// A small record of named values (see `MustacheFields`).
    public static func fields(_ fields: MustacheFields) -> MustacheValue { .object(fields) }
}
