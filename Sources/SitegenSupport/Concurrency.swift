import Dispatch
import SitegenLocking

/// Runs `transform` over `items` on every core, keeping their order.
///
/// Inlinable, so that each use is specialized for its items: called through its generic
/// form from another module, every item would be copied and moved through value witnesses.
@inlinable
public func parallelMap<Item: Sendable, Result: Sendable>(_ items: [Item], _ transform: @Sendable (Item) -> Result) -> [Result] {
    parallelMap(items, order: nil, run: 1, transform)
}

/// `parallelMap` handing the cores `run` items at a time, for work so small (a `stat`)
/// that a hand-over per item would cost as much; on this core alone when there are no
/// more than `run`.
@inlinable
public func parallelMap<Item: Sendable, Result: Sendable>(_ items: [Item], inRunsOf run: Int, _ transform: @Sendable (Item) -> Result) -> [Result] {
    items.count > run ? parallelMap(items, order: nil, run: run, transform) : items.map(transform)
}

/// `parallelMap` working the items in the order `order` (a permutation of their indices)
/// rather than first to last; the results are in the items' order.
@inlinable
public func parallelMap<Item: Sendable, Result: Sendable>(_ items: [Item], workingIn order: [Int], _ transform: @Sendable (Item) -> Result) -> [Result] {
    precondition(order.count == items.count, "order must be a permutation of the items' indices")
    assert(Set(order).count == items.count, "order must be a permutation of the items' indices")
    return parallelMap(items, order: order, run: 1, transform)
}

@inlinable
func parallelMap<Item: Sendable, Result: Sendable>(_ items: [Item], order: [Int]?, run: Int, _ transform: @Sendable (Item) -> Result) -> [Result] {
    // Each result is put straight into its place: an array of optionals unwrapped at the end
    // copied every model of the site once more. Not through that initializer when empty: it
    // writes the count into the one empty array all threads share (a race, if only of zeros).
    guard !items.isEmpty else { return [] }
    return Array(unsafeUninitializedCapacity: items.count) { buffer, initialized in
        nonisolated(unsafe) let slots = buffer
        DispatchQueue.concurrentPerform(iterations: (items.count + run - 1) / run) { step in
            for position in step * run..<min(items.count, (step + 1) * run) {
                let index = order?[position] ?? position
                (slots.baseAddress! + index).initialize(to: transform(items[index]))
            }
        }
        initialized = items.count
    }
}

/// A value worked out on another thread while the caller does something else.
public final class Concurrently<Value: Sendable>: @unchecked Sendable {
    // Written once by the worker before `done` is signalled, read only after waiting on it.
    private var value: Value?
    private let done = DispatchSemaphore(value: 0)

    public init(_ work: @escaping @Sendable () -> Value) {
        DispatchQueue.global().async {
            self.value = work()
            self.done.signal()
        }
    }

    /// The value, once the work is done.
    public func wait() -> Value {
        done.wait()
        // For the next caller, who then need not wait.
        done.signal()
        return value!
    }
}

/// A value made by the first thread that asks for it, which the others wait for.
public final class Once<Value: Sendable>: Sendable {
    private let made = Locked<Value?>(nil)

    public init() {}

    public func value(_ make: () -> Value) -> Value {
        made.withLock { made in
            if let made { return made }
            let value = make()
            made = value
            return value
        }
    }
}
