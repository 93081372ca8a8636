import SitegenSupport
import SitegenYAML

/// A value that can be read out of one YAML node, or say what it expected instead.
public protocol FrontMatterValue {
    /// How the expected value reads in an error: "a date like 2026-12-01".
    static var expectation: String { get }
    /// Throws `.mismatch` when the node is not of this type, or a problem with its own words.
    init(node: YAMLNode) throws(ValueProblem)
    /// The same, with what the values read so far made, for a value that is costly to make
    /// and comes back in file after file.
    init(node: YAMLNode, memo: ReadingMemo) throws(ValueProblem)
}

extension FrontMatterValue {
    public init(node: YAMLNode, memo: ReadingMemo) throws(ValueProblem) {
        try self.init(node: node)
    }
}

/// What the values of one build's files made, kept for the texts that come back in file
/// after file (the same tags and meals). Made by the build, so that nothing outlives it.
public final class ReadingMemo: Sendable {
    let labels = TextMemo<Label?>(limit: 10_000)
    let slugs = TextMemo<String?>(limit: 10_000)

    public init() {}
}

public enum ValueProblem: Error {
    /// The node is of the wrong kind: the message says the expectation and what was found.
    case mismatch
    /// The node has the right kind but a wrong value: the message says why.
    case invalid(String)

    /// A value written in quotes that would be of the expected type without them.
    public static func quoted(_ text: String, expected: String) -> ValueProblem {
        .invalid("must be \(expected), found '\(text)' in quotes, which YAML reads as text: write it without them")
    }
}

/// Where a file's problems are collected, so a build can report all of them at once.
public final class DiagnosticLog {
    public init() {}

    public private(set) var entries: [Diagnostic] = []

    public var hasErrors: Bool { entries.contains { $0.severity == .error } }
    public var errorCount: Int { entries.count { $0.severity == .error } }

    public func add(_ diagnostic: Diagnostic) {
        entries.append(diagnostic)
    }

    public func error(at location: SourceLocation, _ message: String) {
        entries.append(.error(at: location, message))
    }

    public func warning(at location: SourceLocation, _ message: String) {
        entries.append(.warning(at: location, message))
    }

    public func note(at location: SourceLocation, _ message: String) {
        entries.append(.note(at: location, message))
    }
}

/// Reads the keys of one YAML mapping into typed values. Every problem is logged with
/// the location of the offending key or value; reading goes on so that one build
/// reports every problem of a file.
public final class FieldReader {
    public let log: DiagnosticLog
    /// The keys the mapping may have; any other is unknown.
    public let keys: KeyTable
    public let memo: ReadingMemo
    /// The key path in messages: "cover." for the fields of `cover`.
    private let prefix: String
    private let location: SourceLocation
    private let pairs: [YAMLPair]

    public init(_ node: YAMLNode?, keys: KeyTable, log: DiagnosticLog, emptyLocation: SourceLocation, prefix: String = "", memo: ReadingMemo = ReadingMemo()) {
        self.log = log
        self.keys = keys
        self.memo = memo
        self.prefix = prefix
        self.location = node?.location ?? emptyLocation
        self.pairs = node?.mapping ?? []
        if let node, node.mapping == nil, !(node.scalar?.isNull ?? false) {
            log.error(at: node.location, "expected keys like 'title: ...', found \(node.shortDescription)")
        }
    }

    public func name(_ key: String) -> String { prefix + key }

    public func has(_ key: String) -> Bool {
        pairs.contains { $0.key == key }
    }

    /// The node of `key`, or nil when it is absent or written as null.
    public func node(_ key: String) -> YAMLNode? {
        assert(keys.contains(key), "'\(name(key))' is read but not in its KeyTable: add it to ContentKeys, and docs/content.md")
        // Found by place, so that only the node asked for is copied, not every pair passed.
        guard let place = pairs.firstIndex(where: { $0.key == key }) else { return nil }
        if case .scalar(let scalar) = pairs[place].value.value, scalar.isNull { return nil }
        return pairs[place].value
    }

    public func keyLocation(_ key: String) -> SourceLocation {
        pairs.first { $0.key == key }?.keyLocation ?? location
    }

    public var mappingLocation: SourceLocation { location }

    public func optional<Value: FrontMatterValue>(_ key: String, _ type: Value.Type = Value.self) -> Value? {
        guard let node = node(key) else { return nil }
        return read(node, key: key)
    }

    public func required<Value: FrontMatterValue>(_ key: String, _ type: Value.Type = Value.self) -> Value? {
        guard let node = node(key) else {
            let present = pairs.first { $0.key == key }
            log.error(at: present?.value.location ?? location, "missing required key '\(name(key))': expected \(Value.expectation)")
            return nil
        }
        return read(node, key: key)
    }

    /// Text a page shows as a heading or a name: required, and not blank (`title: " "`
    /// would make an empty heading and a link with nothing to click).
    public func requiredText(_ key: String, limit: TextLimit = .heading) -> String? {
        required(key, String.self).flatMap { visible($0, key, limit) }
    }

    /// Text a page shows when it is given, as `requiredText`.
    public func optionalText(_ key: String, limit: TextLimit = .heading) -> String? {
        optional(key, String.self).flatMap { visible($0, key, limit) }
    }

    /// Text of `key` when it is given, at most `limit` long.
    public func optionalText(_ key: String, within limit: TextLimit) -> String? {
        optional(key, String.self).flatMap { within($0, key, limit) }
    }

    private func visible(_ text: String, _ key: String, _ limit: TextLimit) -> String? {
        guard !Summary.isBlank(text) else {
            log.error(at: node(key)?.location ?? location, "'\(name(key))' must not be blank, found \(node(key)?.shortDescription ?? "''")")
            return nil
        }
        return within(text, key, limit)
    }

    private func within(_ text: String, _ key: String, _ limit: TextLimit) -> String? {
        do throws(ValueProblem) {
            try limit.check(text)
            return text
        } catch {
            if case .invalid(let message) = error { log.error(at: node(key)?.location ?? location, "'\(name(key))' \(message)") }
            return nil
        }
    }

    public func read<Value: FrontMatterValue>(_ node: YAMLNode, key: String) -> Value? {
        do throws(ValueProblem) {
            return try Value(node: node, memo: memo)
        } catch {
            switch error {
            case .mismatch:
                log.error(at: node.location, "'\(name(key))' must be \(Value.expectation), found \(node.shortDescription)")
            case .invalid(let message):
                log.error(at: node.location, "'\(name(key))' \(message)")
            }
            return nil
        }
    }

    /// A list of values; a single value is taken as a list of one when `singleAllowed`.
    public func list<Value: FrontMatterValue>(_ key: String, _ type: Value.Type = Value.self, singleAllowed: Bool = false) -> [Value]? {
        guard let node = node(key) else { return nil }
        guard let items = node.sequence else {
            if singleAllowed, node.scalar != nil { return read(node, key: key).map { [$0] } }
            log.error(at: node.location, "'\(name(key))' must be a list of \(Value.expectation), found \(node.shortDescription)")
            return nil
        }
        let values = items.compactMap { read($0, key: key) as Value? }
        return values.count == items.count ? values : nil
    }

    /// An article's tags, each once: one whose page an earlier one of the list has
    /// (`[Dim sum, dim sum]`) is left out with a warning, so that the article is not listed
    /// twice on that page nor links to it twice.
    public func tags(_ key: String) -> [Label] {
        taggedPlaces(key).map(\.label)
    }

    /// `tags(key)`, each with where it is written.
    public func taggedPlaces(_ key: String) -> [(label: Label, location: SourceLocation)] {
        guard let labels = list(key, Label.self, singleAllowed: true) else { return [] }
        let locations = node(key)?.sequence?.map(\.location) ?? Array(repeating: node(key)?.location ?? location, count: labels.count)
        if let node = node(key), let scalar = node.scalar, scalar.text.contains(",") {
            // YAML reads `tags: toast, milk tea` as one text.
            log.warning(at: node.location, "'\(name(key))' is the one tag '\(labels[0].name)'; to give several, write them as a list like [\(scalar.text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: ", "))]")
        }
        // Lists are short, and seldom have one twice: looked along, not copied, first.
        guard labels.indices.contains(where: { later in labels[..<later].contains { $0.slug == labels[later].slug } }) else {
            return Array(zip(labels, locations))
        }
        var kept: [(label: Label, location: SourceLocation)] = []
        kept.reserveCapacity(labels.count)
        for (label, written) in zip(labels, locations) {
            if let first = kept.first(where: { $0.label.slug == label.slug })?.label {
                let message = first.name == label.name ? "'\(label.name)' twice: it is shown once" : "'\(label.name)' after '\(first.name)', the same one: it is shown once, as '\(first.name)'"
                log.warning(at: written, "'\(name(key))' lists \(message)")
                continue
            }
            kept.append((label, written))
        }
        return kept
    }

    /// The reader of a nested mapping such as `cover:` or `restaurant:`.
    public func mapping(_ key: String, expectation: String) -> FieldReader? {
        guard let node = node(key) else { return nil }
        guard node.mapping != nil else {
            log.error(at: node.location, "'\(name(key))' must be \(expectation), found \(node.shortDescription)")
            return nil
        }
        return FieldReader(node, keys: nested(key), log: log, emptyLocation: node.location, prefix: name(key) + ".", memo: memo)
    }

    /// The keys of the mapping `key` holds.
    public func nested(_ key: String) -> KeyTable {
        guard let table = keys.nested(key) else { preconditionFailure("'\(name(key))' holds no mapping in its KeyTable") }
        return table
    }

    /// Keys the table does not have: a warning (an error with `--strict`) naming the closest
    /// known key.
    public func reportUnknownKeys(what: String) {
        for pair in pairs where !keys.contains(pair.key) {
            var message = "unknown key '\(name(pair.key))' in \(what)"
            if let suggestion = Suggestion.closest(to: pair.key, among: keys.names) {
                message += "; did you mean '\(name(suggestion))'?"
            } else if keys.contains("extra") {
                message += "; a field of your own goes under 'extra:'"
            }
            log.warning(at: pair.keyLocation, message)
        }
    }
}
