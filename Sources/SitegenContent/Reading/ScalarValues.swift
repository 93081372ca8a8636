import Foundation
import SitegenSupport
import SitegenYAML

extension String: FrontMatterValue {
    public static var expectation: String { "text" }

    public init(node: YAMLNode) throws(ValueProblem) {
        guard let scalar = node.scalar, !scalar.isNull else { throw .mismatch }
        try TextLimit.any.check(scalar.text)
        self = scalar.text
    }
}

/// How long a text of the front matter may be, in characters. A value pages repeat (a
/// title on every list it is in) costs its length times the number of those pages.
public struct TextLimit: Sendable {
    public var characters: Int

    /// A title or a name.
    public static let heading = TextLimit(characters: 300)
    /// A summary or a description.
    public static let summary = TextLimit(characters: 3_000)
    /// Any other text.
    public static let any = TextLimit(characters: 10_000)

    func check(_ text: String) throws(ValueProblem) {
        // Four bytes at most a character: a text that short needs no counting.
        guard text.utf8.count > characters else { return }
        let count = text.unicodeScalars.count
        guard count > characters else { return }
        throw .invalid("must be at most \(Self.grouped(characters)) characters, found \(Self.grouped(count)): shorten it (docs/content.md#limits)")
    }

    static func grouped(_ number: Int) -> String {
        var digits = String(number)
        var place = digits.count - 3
        while place > 0 {
            digits.insert(",", at: digits.index(digits.startIndex, offsetBy: place))
            place -= 3
        }
        return digits
    }
}

extension Bool: FrontMatterValue {
    public static var expectation: String { "true or false" }

    public init(node: YAMLNode) throws(ValueProblem) {
        guard let scalar = node.scalar else { throw .mismatch }
        let value: Bool
        switch scalar.text {
        case "true", "True", "TRUE": value = true
        case "false", "False", "FALSE": value = false
        default: throw .mismatch
        }
        guard scalar.style == .plain else { throw .quoted(scalar.text, expected: Bool.expectation) }
        self = value
    }
}

extension Int: FrontMatterValue {
    public static var expectation: String { "a whole number" }

    public init(node: YAMLNode) throws(ValueProblem) {
        guard let scalar = node.scalar, let value = Int(scalar.text) else { throw .mismatch }
        guard scalar.style == .plain else { throw .quoted(scalar.text, expected: Int.expectation) }
        self = value
    }
}

/// A number as written (`34`, `12.5`), kept exactly as a decimal.
public struct Number: FrontMatterValue, Hashable, Sendable {
    public var value: Decimal
    public var text: String

    public static var expectation: String { "a number" }

    public init(node: YAMLNode) throws(ValueProblem) {
        guard let scalar = node.scalar, scalar.style == .plain, Number.isNumeral(scalar.text),
              let value = Number.decimal(parsing: scalar.text)
        else {
            if let scalar = node.scalar, scalar.style == .quoted, Number.isNumeral(scalar.text) {
                throw .quoted(scalar.text, expected: Number.expectation)
            }
            throw .mismatch
        }
        self.value = value
        self.text = scalar.text
    }

    /// The value of a numeral (digits, at most one dot, a sign), exactly as written.
    public static func decimal(parsing text: String) -> Decimal? {
        decimal(fromNumeral: text) ?? Decimal(string: text, locale: Number.posix)
    }

    /// The value of a numeral of at most 18 digits, made from its digits as an integer and
    /// the count of digits after the dot — the same Decimal `Decimal(string:)` makes, at a
    /// seventh of the cost (every article has a price and two coordinates). Nil for longer
    /// numerals and for zero (whose exponent `Decimal(string:)` keeps): those take the
    /// general parser.
    public static func decimal(fromNumeral text: String) -> Decimal? {
        var significand: UInt64 = 0
        var digits = 0
        var fractionDigits = 0
        var afterDot = false
        var negative = false
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                digits += 1
                guard digits <= 18 else { return nil }
                significand = significand * 10 + UInt64(byte - UInt8(ascii: "0"))
                if afterDot { fractionDigits += 1 }
            case UInt8(ascii: "."): afterDot = true
            case UInt8(ascii: "-"): negative = true
            default: continue
            }
        }
        guard significand != 0 else { return nil }
        return Decimal(sign: negative ? .minus : .plus, exponent: -fractionDigits, significand: Decimal(significand))
    }

    public var doubleValue: Double { NSDecimalNumber(decimal: value).doubleValue }

    /// Made once: making a locale for every number cost more than reading it.
    private static let posix = Locale(identifier: "en_US_POSIX")

    /// Digits with at most one dot and a sign before them, over the bytes (any byte of a
    /// longer character is refused, as the character would be).
    private static func isNumeral(_ text: String) -> Bool {
        var digits = 0
        var dots = 0
        for (index, byte) in text.utf8.enumerated() {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digits += 1
            case UInt8(ascii: "."): dots += 1
            case UInt8(ascii: "-") where index == 0, UInt8(ascii: "+") where index == 0: continue
            default: return false
            }
        }
        return digits > 0 && dots <= 1
    }
}

/// A day of the calendar, `YYYY-MM-DD`, checked to exist.
