import Foundation
import SitegenSupport
import SitegenYAML

public struct TimeZoneName: FrontMatterValue, Sendable {
    public var zone: TimeZone

    public static var expectation: String { "an IANA time zone like Asia/Hong_Kong" }

    public init(node: YAMLNode) throws(ValueProblem) {
        guard let scalar = node.scalar else { throw .mismatch }
        guard let zone = TimeZoneName.zone(named: scalar.text) else {
            var message = "must be an IANA time zone like Asia/Hong_Kong, found '\(scalar.text)'"
            if let suggestion = Suggestion.closest(to: scalar.text, among: TimeZone.knownTimeZoneIdentifiers) {
                message += "; did you mean '\(suggestion)'?"
            }
            throw .invalid(message)
        }
        self.zone = zone
    }

    public static func zone(named name: String) -> TimeZone? {
        if name == "UTC" || name == "GMT" { return TimeZone(identifier: name) }
        // An Area/Location name the zone keeps as its identifier is one of the database's.
        // ICU also takes abbreviations ("PST"), which are no IANA names; listing its names
        // is slow, so the list is asked only for other names.
        if let area = name.split(separator: "/", maxSplits: 1).first, area.count < name.count, TimeZoneName.areas.contains(String(area)),
           let zone = TimeZone(identifier: name), zone.identifier == name {
            return zone
        }
        guard TimeZone.knownTimeZoneIdentifiers.contains(name) else { return nil }
        return TimeZone(identifier: name)
    }

    /// The regions of the time zone database's `Area/Location` names.
    private static let areas: Set<String> = ["Africa", "America", "Antarctica", "Arctic", "Asia", "Atlantic", "Australia", "Europe", "Indian", "Pacific", "Etc"]
}

/// An ISO 4217 currency code such as HKD.
public struct CurrencyCode: FrontMatterValue, Hashable, Sendable, CustomStringConvertible {
    public var code: String

    public static var expectation: String { "an ISO 4217 currency code like HKD" }

    public init(_ code: String) { self.code = code }

    public init(node: YAMLNode) throws(ValueProblem) {
        guard let scalar = node.scalar else { throw .mismatch }
        guard scalar.text.utf8.count == 3, CurrencyCode.known.contains(scalar.text) else {
            var message = "must be an ISO 4217 currency code like HKD or USD, found '\(scalar.text)'"
            if CurrencyCode.known.contains(scalar.text.uppercased()) { message += "; did you mean '\(scalar.text.uppercased())'?" }
            throw .invalid(message)
        }
        code = scalar.text
    }

    /// Asked of Foundation once: it makes its list anew at each call, and every article
    /// with a price names a currency.
    public static let known = Set(Locale.commonISOCurrencyCodes)

    public var description: String { code }
}

/// A BCP 47 language tag such as en or zh-Hant-HK.
public struct LanguageTag: FrontMatterValue, Hashable, Sendable, CustomStringConvertible {
    public var text: String

    public static var expectation: String { "a language tag like en or zh-HK" }

    public init(_ text: String) { self.text = text }

    public init(node: YAMLNode) throws(ValueProblem) {
        guard let scalar = node.scalar else { throw .mismatch }
        guard LanguageTag.isWellFormed(scalar.text) else {
            var message = "must be a language tag like en or zh-HK, found '\(scalar.text)'"
            // A locale name as systems write it (en_US, zh_HK.UTF-8) is a tag with an underscore.
            let tag = String(scalar.text.prefix { $0 != "." && $0 != "@" }).replacingOccurrences(of: "_", with: "-")
            if tag != scalar.text, LanguageTag.isWellFormed(tag) { message += "; did you mean '\(tag)'?" }
            throw .invalid(message)
        }
        text = scalar.text
    }

    private static func isWellFormed(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard let first = parts.first else { return false }
        return (2...3).contains(first.count) && first.allSatisfy({ $0.isASCII && $0.isLetter })
            && parts.dropFirst().allSatisfy({ (1...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } })
    }

    public var description: String { text }
}

/// A plain email address, good enough to be a mailto: link.
