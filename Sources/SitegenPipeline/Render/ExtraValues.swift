import SitegenContent
import SitegenMustache

extension Extra {
    /// What `{{extra}}` is: its fields by name, or nothing when it has none, so that
    /// `{{#extra}}…{{/extra}}` shows only when there is something in it.
    public var mustacheValue: MustacheValue {
        guard !isEmpty else { return .null }
        return .dictionary(Dictionary(fields.map { ($0.key, $0.value.mustacheValue) }, uniquingKeysWith: { first, _ in first }))
    }
}

extension Extra.Value {
    public var mustacheValue: MustacheValue {
        switch self {
        case .null: .null
        case .bool(let flag): .bool(flag)
        case .integer(let number): .int(number)
        case .text(let text): .string(text)
        case .list(let items): .array(items.map(\.mustacheValue))
        case .mapping(let fields): fields.isEmpty ? .dictionary([:]) : fields.mustacheValue
        }
    }
}
