import Synchronization

/// Who an object is, for a `MustachePartialMemo` (see `MustacheObject.mustacheIdentity`):
/// a text, hashed once when made. A card's identity names its article's file, some seventy
/// bytes that every list page showing the card hashed again to find it.
public struct MustacheIdentity: Hashable, Sendable {
    public let text: String
    let hash: Int

    public init(_ text: String) {
        self.text = text
        hash = text.hashValue
    }

    public static func == (a: MustacheIdentity, b: MustacheIdentity) -> Bool {
        a.hash == b.hash && a.text == b.text
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(hash)
    }
}

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
    /// A partial over an object, at an indentation; or, with no identity, a partial that read
    /// nothing. Its hash is made once from the parts' own, which are made once each.
    struct Key: Hashable, Sendable {
        let template: String
        let identity: MustacheIdentity?
        let indent: [UInt8]
        let hash: Int

        init(template: MustacheTemplate, identity: MustacheIdentity?, indent: [UInt8]) {
            self.template = template.name
            self.identity = identity
            self.indent = indent
            var hash = template.nameHash &* 0x1E37_79B9_7F4A_7C15 ^ (identity?.hash ?? 0)
            for byte in indent { hash = (hash ^ Int(byte)) &* 0x100_0000_01B3 }
            self.hash = hash
        }

        static func == (a: Key, b: Key) -> Bool {
            a.hash == b.hash && a.identity == b.identity && a.template == b.template && a.indent == b.indent
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(hash)
        }
    }

    /// Held by reference: found on every list page for every card, an entry of values was
    /// copied out of its table with a retain of each of its parts.
    final class Entry: Sendable {
        let bytes: [UInt8]
        let usedTemplates: TemplateUse
        /// How many templates deep the rendering went, so that a use deeper in a page still
        /// meets the nesting limit.
        let depth: Int

        init(bytes: [UInt8], usedTemplates: TemplateUse, depth: Int) {
            self.bytes = bytes
            self.usedTemplates = usedTemplates
            self.depth = depth
        }
    }

    /// Tables that a key's hash picks among, each behind its own lock: with one, the cores
    /// rendering pages waited for each other at nearly every card.
    private final class Shard: Sendable {
        let entries = Mutex<[Key: Entry]>([:])
    }

    private let shards: [Shard] = (0..<16).map { _ in Shard() }

    public init() {}

    private func shard(_ key: Key) -> Shard {
        shards[Int(UInt(bitPattern: key.hash) >> 60)]
    }

    subscript(key: Key) -> Entry? {
        get { shard(key).entries.withLock { $0[key] } }
        set { shard(key).entries.withLock { $0[key] = newValue } }
    }

    /// How many renderings are kept.
    public var count: Int { shards.reduce(0) { count, shard in count + shard.entries.withLock { $0.count } } }
}
