import SitegenContent
import SitegenMustache

extension StoredText {
    /// What a template prints, without making a String of bytes.
    public var mustacheValue: MustacheValue {
        switch form {
        case .text(let text): .string(text)
        case .utf8(let bytes): .utf8(bytes)
        }
    }
}
