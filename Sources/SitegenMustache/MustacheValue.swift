/// A value a template is rendered against.
///
/// Model types do not need to be converted into dictionaries: they conform to
/// `MustacheObject` and are wrapped in `.object`, and the renderer asks them for
/// one field at a time, only for the fields a template actually uses.
public enum MustacheValue: Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    /// Text as its UTF-8 bytes (made with `.utf8(_:)`), which must be valid UTF-8: HTML made
    /// elsewhere (rendered Markdown, a cache's bytes) is written as it is, without being
    /// decoded into a String and checked again first. Otherwise it reads like `.string`.
    case bytes(MustacheBytes)
    case array([MustacheValue])
    case dictionary([String: MustacheValue])
    /// A `MustacheObject`, made with `.object(_:)`. Held by reference: a value is copied
    /// onto the context stack and out of every lookup, and copying the object itself went
    /// through its type's witnesses (a retain per field of a view) each time.
    case boxed(MustacheObjectBox)
    /// A small record of named values (see `MustacheFields`), held as its array: boxed as an
    /// object, each record would be an allocation more, and each lookup in it a call
    /// through a protocol.
    case fields(MustacheFields)

    /// A model that shows its fields to templates itself (see `MustacheObject`).
    public static func object(_ object: any MustacheObject) -> MustacheValue { .boxed(MustacheObjectBox(object)) }

    /// Text as its UTF-8 bytes, which must be valid UTF-8 (see `.bytes`).
    public static func utf8(_ bytes: ArraySlice<UInt8>) -> MustacheValue { .bytes(MustacheBytes(bytes)) }

    /// Falsey values skip `{{#section}}` and render `{{^section}}`: null, false, zero,
    /// the empty string and the empty list, as in JavaScript's Mustache, so that
    /// `{{#count}}` reads as "if there are any".
    public var isTruthy: Bool {
        switch self {
        case .null: false
        case .bool(let value): value
        case .int(let value): value != 0
        case .double(let value): value != 0
        case .string(let value): !value.isEmpty
        case .bytes(let text): !text.bytes.isEmpty
        case .array(let items): !items.isEmpty
        case .dictionary, .boxed, .fields: true
        }
    }

    /// The field `key` of this value, or nil when it has none. A field that
    /// exists with a null value is `.null`, not nil: lookups stop there.
    /// Lists answer `count`, `first`, `last` and an index (`items.0`), so a template can
    /// write `{{#items.0}}<ul>…</ul>{{/items.0}}` to show a list only when it has items.
    public func member(_ key: String) -> MustacheValue? {
        switch self {
        case .dictionary(let fields):
            return fields[key]
        case .boxed(let box):
            return box.object.mustacheMember(key)
        case .fields(let fields):
            return fields[key]
        case .array(let items):
            switch key {
            case "count": return .int(items.count)
            case "first": return items.first ?? .null
            case "last": return items.last ?? .null
            default:
                guard let index = Int(key), index >= 0 else { return nil }
                return index < items.count ? items[index] : .null
            }
        default:
            return nil
        }
    }
}

extension MustacheValue {
    /// The box of an object, not retained: for asking a frame of the renderer's stack for a
    /// member where the frame is stored. Binding the box in a pattern copied the frame out
    /// of the stack before the call and released it after, two atomic operations for every
    /// frame a name was looked for in.
    @inline(__always)
    var unretainedBox: Unmanaged<MustacheObjectBox>? {
        if case .boxed(let box) = self { return Unmanaged.passUnretained(box) }
        return nil
    }
}

/// The UTF-8 bytes of a `MustacheValue`, held by reference: a slice is four words, and a
/// value that large would be copied and destroyed through its type's value witnesses at
/// every copy.
public final class MustacheBytes: Sendable {
    public let bytes: ArraySlice<UInt8>

    public init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
    }
}

/// An object of a `MustacheValue`, held once by reference.
public final class MustacheObjectBox: Sendable {
    public let object: any MustacheObject

    init(_ object: any MustacheObject) {
        self.object = object
    }
}

/// A type that shows its fields to templates directly.
public protocol MustacheObject: Sendable {
    /// The value of the field `key`, or nil when the type has no such field.
    func mustacheMember(_ key: String) -> MustacheValue?
    /// What `{{object}}` prints (a price as `HK$ 34`); nil prints nothing.
    var mustacheText: String? { get }
    /// Who the object is, for a `MustachePartialMemo`: two objects with the same identity
    /// must answer every field alike for as long as the memo lives. Nil (the default)
    /// renders its partials every time. A text: comparing type-erased values cost more
    /// than rendering a small partial.
    var mustacheIdentity: MustacheIdentity? { get }
}

extension MustacheObject {
    public var mustacheText: String? { nil }
    public var mustacheIdentity: MustacheIdentity? { nil }
}

/// A type that can be turned into a `MustacheValue`.
public protocol MustacheConvertible {
    var mustacheValue: MustacheValue { get }
}

extension String: MustacheConvertible {
    public var mustacheValue: MustacheValue { .string(self) }
}

extension Int: MustacheConvertible {
    public var mustacheValue: MustacheValue { .int(self) }
}

extension Double: MustacheConvertible {
    public var mustacheValue: MustacheValue { .double(self) }
}

extension Bool: MustacheConvertible {
    public var mustacheValue: MustacheValue { .bool(self) }
}

extension Optional: MustacheConvertible where Wrapped: MustacheConvertible {
    public var mustacheValue: MustacheValue { self?.mustacheValue ?? .null }
}

extension Array: MustacheConvertible where Element: MustacheConvertible {
    public var mustacheValue: MustacheValue { .array(map(\.mustacheValue)) }
}

extension MustacheValue: MustacheConvertible {
    public var mustacheValue: MustacheValue { self }
}

extension MustacheValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral, ExpressibleByNilLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .int(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(nilLiteral: ()) { self = .null }
    public init(arrayLiteral elements: MustacheValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, MustacheValue)...) {
        self = .dictionary(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

extension MustacheValue: Decodable {
    /// Reads JSON as the spec's test data and `sitegen render-template` give it.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .int(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([MustacheValue].self) {
            self = .array(value)
        } else {
            self = .dictionary(try container.decode([String: MustacheValue].self))
        }
    }
}
