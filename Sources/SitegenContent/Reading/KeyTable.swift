/// A key a content file may have, with what authors read of it in docs/content.md (whose
/// tables are made from these).
public struct ContentKey: Sendable {
    public var name: String
    /// What the value is: "text", "a date, or a date and time".
    public var type: String
    /// "required", or what the key is when it is left out.
    public var defaultValue: String
    public var meaning: String
    /// The key as written in YAML: `title: Lovely Breakfast`.
    public var example: String
    /// The keys of a mapping this key holds.
    public var keys: KeyTable?

    public init(_ name: String, _ type: String, default defaultValue: String, _ meaning: String, example: String, keys: KeyTable? = nil) {
        self.name = name
        self.type = type
        self.defaultValue = defaultValue
        self.meaning = meaning
        self.example = example
        self.keys = keys
    }
}

/// The keys one mapping of a content file may have: the reader reads no other, a key not
/// here is unknown (a warning with the closest one), and docs/content.md lists exactly these.
public struct KeyTable: Sendable {
    public var keys: [ContentKey]

    public init(_ keys: [ContentKey]) {
        self.keys = keys
    }

    public var names: [String] { keys.map(\.name) }

    public func contains(_ name: String) -> Bool {
        keys.contains { $0.name == name }
    }

    /// The keys of the mapping `name` holds.
    public func nested(_ name: String) -> KeyTable? {
        keys.first { $0.name == name }?.keys
    }

    /// Every key, nested ones by their path (`cover.src`), each after the mapping that holds it.
    public var paths: [(path: String, key: ContentKey)] {
        keys.flatMap { key in
            [(key.name, key)] + (key.keys?.paths.map { ("\(key.name).\($0.path)", $0.key) } ?? [])
        }
    }
}
