/// The bytes a render appends to: one block of memory, grown by doubling, each run of bytes
/// copied in with one `memcpy`. A page is made of a few hundred short runs (a line of the
/// template, an escaped title, a URL), and an Array's `append(contentsOf:)` costs more per
/// run than the copy itself (checks of uniqueness and capacity, an iterator drained to its
/// end).
struct OutputBytes: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private(set) var count = 0

    init(capacity: Int) {
        self.capacity = Swift.max(capacity, 64)
        base = .allocate(capacity: self.capacity)
    }

    deinit {
        base.deallocate()
    }

    @inline(__always)
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress else { return }
        let added = bytes.count
        if capacity - count < added { grow(toHold: count + added) }
        (base + count).initialize(from: source, count: added)
        count += added
    }

    @inline(__always)
    mutating func append(_ bytes: some Collection<UInt8>) {
        if bytes.withContiguousStorageIfAvailable({ append($0) }) == nil { Array(bytes).withUnsafeBufferPointer { append($0) } }
    }

    /// A native string's bytes where they are: copied into a `var` for `withUTF8`, each
    /// string was retained and released once more.
    mutating func append(_ string: String) {
        append(string.utf8)
    }

    /// The bytes from `start` on, as an array.
    func array(from start: Int = 0) -> [UInt8] {
        Array(UnsafeBufferPointer(start: base + start, count: count - start))
    }

    /// Calls `body` with the bytes, in place.
    func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        body(UnsafeBufferPointer(start: base, count: count))
    }

    @inline(never)
    private mutating func grow(toHold needed: Int) {
        let grown = Swift.max(needed, capacity * 2)
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
        moved.initialize(from: base, count: count)
        base.deallocate()
        base = moved
        capacity = grown
    }
}
