import Foundation
import SitegenContent
import SitegenPipeline
import SitegenSupport

/// The facts of a language's formats as the cache keeps them (`Formats.learn`).
extension BinaryWriter {
    mutating func formatFacts(_ value: FormatFacts) {
        string(value.language.text)
        switch value.months {
        case nil: integer(0)
        case .some(nil): integer(1)
        case .some(let patterns?):
            integer(2)
            array(patterns) { writer, pattern in
                writer.array(pattern.pieces) { writer, piece in
                    switch piece {
                    case .text(let text):
                        writer.integer(0)
                        writer.string(text)
                    case .day: writer.integer(1)
                    case .year: writer.integer(2)
                    }
                }
            }
        }
        array(value.currencies.sorted { $0.key.code < $1.key.code }) { writer, entry in
            writer.string(entry.key.code)
            writer.string(entry.value.symbol)
            writer.integer(entry.value.fractionDigits.lowerBound)
            writer.integer(entry.value.fractionDigits.upperBound)
            writer.optional(entry.value.plain) { writer, plain in
                writer.string(plain.separator)
                writer.integer(plain.minimumFractionDigits)
                writer.integer(plain.maximumFractionDigits)
            }
        }
    }
}

extension BinaryReader {
    /// Checked as `DatePattern` and `CurrencyFacts` make them: twelve months, each with its
    /// day once; fraction digits in order.
    mutating func formatFacts() throws(Corrupt) -> FormatFacts {
        var facts = FormatFacts(language: LanguageTag(try string()))
        switch try integer() {
        case 0: facts.months = nil
        case 1: facts.months = .some(nil)
        case 2:
            let patterns = try array { reader throws(Corrupt) -> DatePattern in
                let pieces = try reader.array { reader throws(Corrupt) -> DatePattern.Piece in
                    switch try reader.integer() {
                    case 0: return .text(try reader.string())
                    case 1: return .day
                    case 2: return .year
                    default: throw Corrupt()
                    }
                }
                guard pieces.count(where: { $0 == .day }) == 1 else { throw Corrupt() }
                return DatePattern(pieces: pieces)
            }
            guard patterns.count == 12 else { throw Corrupt() }
            facts.months = .some(patterns)
        default: throw Corrupt()
        }
        let currencies = try array { reader throws(Corrupt) -> (CurrencyCode, CurrencyFacts) in
            let code = CurrencyCode(try reader.string())
            let symbol = try reader.string()
            let lower = try reader.integer()
            let upper = try reader.integer()
            guard 0 <= lower, lower <= upper else { throw Corrupt() }
            let plain = try reader.optional { reader throws(Corrupt) -> PlainAmounts in
                PlainAmounts(separator: try reader.string(), minimumFractionDigits: try reader.integer(), maximumFractionDigits: try reader.integer())
            }
            return (code, CurrencyFacts(symbol: symbol, fractionDigits: lower...upper, plain: plain))
        }
        for (code, currency) in currencies {
            guard facts.currencies.updateValue(currency, forKey: code) == nil else { throw Corrupt() }
        }
        return facts
    }
}
