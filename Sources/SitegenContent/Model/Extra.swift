import SitegenSupport
import SitegenYAML

/// `extra:`, the author's own fields: whatever YAML they wrote, for templates to show as
/// `{{extra.opening_hours}}`. sitegen reads nothing in it, so it checks nothing but that it
/// is a mapping.
public struct Extra: Sendable, Hashable {
    public indirect enum Value: Sendable, Hashable {
        case null
        case bool(Bool)
        /// A whole number written bare; other numbers and dates stay text as written, so a
        /// template shows `4.50` and `2026-12-01` exactly as the author did.
        case integer(Int)
        case text(String)
        case list([Value])
        case mapping(Extra)
    }

    /// The fields in the order they were written.
    public var fields: [(key: String, value: Value)]

    public static let none = Extra(fields: [])

    public init(fields: [(key: String, value: Value)]) {
        self.fields = fields
    }

    public var isEmpty: Bool { fields.isEmpty }

    public subscript(key: String) -> Value? {
        fields.first { $0.key == key }?.value
    }

    public static let expectation = "a mapping of fields of your own like {opening_hours: 7am to 3pm}"

    /// The fields of a mapping node; a key written twice is already an error of the YAML
    /// reader's.
    public init(mapping pairs: [YAMLPair]) {
        fields = pairs.map { ($0.key, Value(node: $0.value)) }
    }

    public static func == (lhs: Extra, rhs: Extra) -> Bool {
        lhs.fields.count == rhs.fields.count && zip(lhs.fields, rhs.fields).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(fields.count)
        for field in fields {
            hasher.combine(field.key)
            hasher.combine(field.value)
        }
    }
}

extension Extra.Value {
    public init(node: YAMLNode) {
        switch node.value {
        case .scalar(let scalar):
            if scalar.isNull {
                self = .null
            } else if scalar.style == .plain, let value = try? Bool(node: node) {
                self = .bool(value)
            } else if scalar.style == .plain, let value = Int(scalar.text) {
                self = .integer(value)
            } else {
                self = .text(scalar.text)
            }
        case .sequence(let items):
            self = .list(items.map(Extra.Value.init(node:)))
        case .mapping(let pairs):
            self = .mapping(Extra(mapping: pairs))
        }
    }
}

extension FieldReader {
    /// `extra:`, when it is written: anything but a mapping is an error.
    public func extra() -> Extra {
        guard let node = node("extra") else { return .none }
        guard let pairs = node.mapping else {
            if node.scalar?.isNull == true { return .none }
            log.error(at: node.location, "'\(name("extra"))' must be \(Extra.expectation), found \(node.shortDescription)")
            return .none
        }
        return Extra(mapping: pairs)
    }
}

extension ContentKey {
    /// The `extra` key, which every file with fields of its own has.
    public static let extra = ContentKey(
        "extra", "a mapping of anything", default: "none",
        "Fields of your own, for your templates: `{{extra.opening_hours}}`. sitegen reads nothing in it and never warns about it.",
        example: "extra: {opening_hours: 7am to 3pm}")
}

extension BinaryWriter {
    public mutating func extra(_ value: Extra) {
        array(value.fields) { writer, field in
            writer.string(field.key)
            writer.extraValue(field.value)
        }
    }

    mutating func extraValue(_ value: Extra.Value) {
        switch value {
        case .null: append(0)
        case .bool(let flag): append(flag ? 2 : 1)
        case .integer(let number):
            append(3)
            integer(number)
        case .text(let text):
            append(4)
            string(text)
        case .list(let items):
            append(5)
            array(items) { $0.extraValue($1) }
        case .mapping(let fields):
            append(6)
            extra(fields)
        }
    }
}

extension BinaryReader {
    public mutating func extra() throws(Corrupt) -> Extra {
        Extra(fields: try array { reader throws(Corrupt) in (try reader.string(), try reader.extraValue()) })
    }

    mutating func extraValue() throws(Corrupt) -> Extra.Value {
        switch try unsigned() {
        case 0: .null
        case 1: .bool(false)
        case 2: .bool(true)
        case 3: .integer(try integer())
        case 4: .text(try string())
        case 5: .list(try array { reader throws(Corrupt) in try reader.extraValue() })
        case 6: .mapping(try extra())
        default: throw Corrupt()
        }
    }
}
