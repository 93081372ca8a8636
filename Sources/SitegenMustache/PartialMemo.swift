import SitegenLocking

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
    /// A rendering kept, with what it was kept for: a partial over an object with that
    /// identity, at that indentation; or, with no identity, a partial that read nothing.
    /// Held by reference: found on every list page for every card, an entry of values was
    /// copied out of its table with a retain of each of its parts.
    final class Entry: Sendable {
        let template: String
        let identity: MustacheIdentity?
        let indent: [UInt8]
        let bytes: [UInt8]
        let usedTemplates: TemplateUse
        /// How many templates deep the rendering went, so that a use deeper in a page still
        /// meets the nesting limit.
        let depth: Int

        init(template: MustacheTemplate, identity: MustacheIdentity?, indent: [UInt8], bytes: [UInt8], usedTemplates: TemplateUse, depth: Int) {
            self.template = template.name
            self.identity = identity
            self.indent = indent
            self.bytes = bytes
            self.usedTemplates = usedTemplates
            self.depth = depth
        }

        func isFor(_ template: String, _ identity: MustacheIdentity?, _ indent: [UInt8]) -> Bool {
            self.identity == identity && self.template == template && self.indent == indent
        }
    }

    /// Entries by the hash of what they are for, made from hashes made once (the template's
    /// name's, the identity's): looked up by a number, a key of strings and bytes was made,
    /// copied and hashed for each partial of each page.
    private final class Shard: Sendable {
        let entries = Locked<[Int: [Entry]]>([:])
    }

    /// Tables that a hash picks among, each behind its own lock: with one, the cores
    /// rendering pages waited for each other at nearly every card.
    private let shards: [Shard] = (0..<16).map { _ in Shard() }

    public init() {}

    static func hash(_ template: MustacheTemplate, _ identity: MustacheIdentity?, _ indent: [UInt8]) -> Int {
        var hash = template.nameHash &* 0x1E37_79B9_7F4A_7C15 ^ (identity?.hash ?? 0)
        for byte in indent { hash = (hash ^ Int(byte)) &* 0x100_0000_01B3 }
        return hash
    }

    private func shard(_ hash: Int) -> Shard {
        shards[Int(UInt(bitPattern: hash) >> 60)]
    }

    /// The rendering kept of `template` over `identity` (nil: one that read nothing) at `indent`.
    func entry(hash: Int, _ template: MustacheTemplate, _ identity: MustacheIdentity?, _ indent: [UInt8]) -> Entry? {
        shard(hash).entries.withLock { $0[hash]?.first { $0.isFor(template.name, identity, indent) } }
    }

    func keep(_ entry: Entry, hash: Int) {
        shard(hash).entries.withLock { entries in
            if entries[hash]?.contains(where: { $0.isFor(entry.template, entry.identity, entry.indent) }) != true { entries[hash, default: []].append(entry) }
        }
    }

    /// How many renderings are kept.
    public var count: Int { shards.reduce(0) { count, shard in count + shard.entries.withLock { $0.values.reduce(0) { $0 + $1.count } } } }
}
