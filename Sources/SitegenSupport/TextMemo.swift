import SitegenLocking
import Synchronization

/// What a costly function of a text made, remembered for the texts that come back: the same
/// tags, meals and headings return in article after article, and working a character at a
/// time costs thousands of instructions each.
public typealias TextMemo<Value: Sendable> = Memo<String, Value>

/// What a costly function made of a key, remembered for the keys that come back (a text, a
/// restaurant as written). Safe to share between threads; at most `limit` keys are kept, so
/// a site of unique keys costs no more than it did.
///
/// Inlinable, so that each use is specialized for its values: called through its generic
/// form from another module, each look-up would ask the runtime for the metadata of its
/// types and hash through witness tables.
public final class Memo<Input: Hashable & Sendable, Value: Sendable>: Sendable {
    /// A key with its hash, made once: it picks the shard and is the table's hash too.
    @usableFromInline
    struct Key: Hashable, Sendable {
        @usableFromInline let input: Input
        @usableFromInline let hash: Int

        @inlinable
        init(_ input: Input) {
            self.input = input
            hash = input.hashValue
        }

        @inlinable
        static func == (a: Key, b: Key) -> Bool { a.hash == b.hash && a.input == b.input }

        @inlinable
        func hash(into hasher: inout Hasher) { hasher.combine(hash) }
    }

    /// Tables behind locks of their own, picked by a key's hash: with one lock, the cores
    /// reading articles side by side handed its cache line back and forth at every tag.
    @usableFromInline
    final class Shard: Sendable {
        @usableFromInline let known = Locked<[Key: Value]>([:])

        @usableFromInline
        init() {}
    }

    @usableFromInline static var shardCount: Int { 8 }
    @usableFromInline let shards: [Shard] = (0..<Memo.shardCount).map { _ in Shard() }
    @usableFromInline let limit: Int
    /// How many keys all the shards keep: written only when a key is added.
    @usableFromInline let kept = Atomic(0)

    public init(limit: Int) {
        self.limit = limit
    }

    /// The value `make` gives for `input`, made at most once while the memo has room. Made
    /// outside the lock: two threads may make the same value, and either is kept.
    @inlinable
    public func value(for input: Input, making make: (Input) -> Value) -> Value {
        let key = Key(input)
        let shard = shards[Int(UInt(bitPattern: key.hash) % UInt(Memo.shardCount))]
        if let value = shard.known.withLock({ $0[key] }) { return value }
        let value = make(input)
        guard kept.load(ordering: .relaxed) < limit else { return value }
        shard.known.withLock { known in
            guard known[key] == nil else { return }
            // A place is taken before the key is kept: threads adding to different tables
            // at once could each see room for one more and pass the limit together.
            guard kept.add(1, ordering: .relaxed).oldValue < limit else {
                kept.subtract(1, ordering: .relaxed)
                return
            }
            known[key] = value
        }
        return value
    }
}
