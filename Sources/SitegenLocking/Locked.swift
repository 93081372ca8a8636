import Synchronization
#if SITEGEN_THREAD_SANITIZER
import Glibc
#endif

/// A value shared between threads behind a lock: the standard library's `Mutex`. In a build
/// for ThreadSanitizer (`make sanitize` compiles with `-DSITEGEN_THREAD_SANITIZER`) it is a
/// pthread mutex, whose locking the sanitizer sees: the standard library is built without
/// it, so it could not see `Mutex` taken, and reported every access it guards as a race.
public struct Locked<Value: ~Copyable>: ~Copyable {
    #if SITEGEN_THREAD_SANITIZER
    @usableFromInline let lock: UnsafeMutablePointer<pthread_mutex_t>
    @usableFromInline let value: UnsafeMutablePointer<Value>

    public init(_ initial: consuming sending Value) {
        lock = .allocate(capacity: 1)
        pthread_mutex_init(lock, nil)
        value = .allocate(capacity: 1)
        value.initialize(to: initial)
    }

    deinit {
        value.deinitialize(count: 1)
        value.deallocate()
        pthread_mutex_destroy(lock)
        lock.deallocate()
    }

    @inlinable
    public borrowing func withLock<Result: ~Copyable, E: Error>(_ body: (inout sending Value) throws(E) -> sending Result) throws(E) -> sending Result {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return try body(&value.pointee)
    }
    #else
    @usableFromInline let mutex: Mutex<Value>

    @inlinable
    public init(_ initial: consuming sending Value) {
        mutex = Mutex(initial)
    }

    @inlinable
    public borrowing func withLock<Result: ~Copyable, E: Error>(_ body: (inout sending Value) throws(E) -> sending Result) throws(E) -> sending Result {
        try mutex.withLock(body)
    }
    #endif
}

extension Locked: @unchecked Sendable where Value: ~Copyable {}
