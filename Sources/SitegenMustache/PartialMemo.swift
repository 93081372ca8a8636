import Synchronization

/// Partials rendered over objects that say who they are (`MustacheObject.mustacheIdentity`),
/// kept for the renders that share the memo: a list page shows the same card of an
/// article as a dozen other pages do, and renders it once. A partial that looks up no
/// name at all (an icon, a bar of buttons) is kept once for every context.
///
/// A rendering is kept only when nothing in it depended on the rest of the page: every name
/// it looked up was found in the object or in what the partial made of it (never in the
/// contexts below), and it used no blocks. Who makes a memo decides how long objects keep
/// their identity: the memo must not outlive the values and templates it was filled with.
public final class MustachePartialMemo: Sendable {
    struct Key: Hashable, Sendable {
        var template: String
        var identity: String
        var indent: [UInt8]
    }

    struct Entry: Sendable {
        var bytes: [UInt8]
        var usedTemplates: TemplateUse
        /// How many templates deep the rendering went, so that a use deeper in a page still
        /// meets the nesting limit.
        var depth: Int
    }

    /// A partial that read nothing, at an indentation.
    struct StaticKey: Hashable, Sendable {
        var template: String
        var indent: [UInt8]
    }

    private let entries = Mutex<[Key: Entry]>([:])
    private let statics = Mutex<[StaticKey: Entry]>([:])

    public init() {}

    subscript(key: Key) -> Entry? {
        get { entries.withLock { $0[key] } }
        set { entries.withLock { $0[key] = newValue } }
    }

    subscript(key: StaticKey) -> Entry? {
        get { statics.withLock { $0[key] } }
        set { statics.withLock { $0[key] = newValue } }
    }

    /// How many renderings are kept.
    public var count: Int { entries.withLock { $0.count } + statics.withLock { $0.count } }
}
