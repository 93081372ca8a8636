import Synchronization

/// What a costly function of a text made, remembered for the texts that come back: the same
/// tags, meals and headings return in article after article, and working a character at a
/// time costs thousands of instructions each. Safe to share between threads; at most
/// `limit` texts are kept, so a site of unique texts costs no more than it did.
public final class TextMemo<Value: Sendable>: Sendable {
    private let known = Mutex<[String: Value]>([:])
    private let limit: Int

    public init(limit: Int) {
        self.limit = limit
    }

    /// The value `make` gives for `text`, made at most once while the memo has room. Made
    /// outside the lock: two threads may make the same value, and either is kept.
    public func value(for text: String, making make: (String) -> Value) -> Value {
        if let value = known.withLock({ $0[text] }) { return value }
        let value = make(text)
        known.withLock { known in
            if known.count < limit { known[text] = value }
        }
        return value
    }
}
