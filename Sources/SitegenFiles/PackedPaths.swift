import SitegenPlatform

/// Paths kept as their UTF-8 bytes in one buffer, read as strings only when asked for:
/// most of a cache's content paths are compared once with the walk's path and never looked
/// at again.
///
/// Compared with a string as bytes: equality is the bytes' (a path read from a folder
/// twice has the same bytes both times), and where both are ASCII the bytes' order is
/// `String`'s; otherwise the path is made into a string and compared as one.
public struct PackedPaths: RandomAccessCollection, Sendable, Equatable {
    /// Each path followed by a NUL, so that it is also a C string for the system's calls.
    @usableFromInline var bytes: [UInt8] = []
    /// Where each path's bytes are in `bytes`; a path inserted or removed in the middle
    /// moves only these (its bytes go at the end, or stay there unused).
    @usableFromInline var spans: [Range<Int>] = []
    /// Whether no path is known to have a byte past ASCII: paths appended unchecked (to
    /// tables that keep the order of bytes) are not looked at, and count as if they had.
    @usableFromInline var allASCII = true

    @inlinable
    public init() {}

    @inlinable
    public init(_ paths: some Sequence<String>) {
        for path in paths { append(path) }
    }

    @inlinable
    public var startIndex: Int { 0 }
    @inlinable
    public var endIndex: Int { spans.count }

    @inlinable
    public subscript(index: Int) -> String {
        withBytes(at: index) { String(decoding: $0, as: UTF8.self) }
    }

    /// The index of the first path with the bytes of `path`.
    @inlinable
    public func firstIndex(of path: String) -> Int? {
        withView { view in indices.first { view.isSame(at: $0, as: path) } }
    }

    @inlinable
    public mutating func reserveCapacity(_ count: Int) {
        spans.reserveCapacity(count)
        bytes.reserveCapacity(count * 64)
    }

    @inlinable
    public mutating func append(_ path: String) {
        spans.append(store(path))
    }

    /// Appends a path given as bytes (read from the cache, written there from a string)
    /// when it comes after the last one in `String`'s order; false, appending nothing,
    /// when it does not.
    @inlinable
    public mutating func append(inOrder path: UnsafeBufferPointer<UInt8>) -> Bool {
        let ascii = allASCII && path.isASCII
        if let last = spans.last {
            let inOrder = ascii
                ? bytes.withUnsafeBufferPointer { Self.order(UnsafeBufferPointer(rebasing: $0[last]), path) < 0 }
                : self[spans.count - 1] < String(decoding: path, as: UTF8.self)
            guard inOrder else { return false }
        }
        spans.append(copy(path))
        allASCII = ascii
        return true
    }

    /// Appends a path given as bytes wherever it sorts, for a table that keeps the order
    /// of bytes itself (`PathTable`) or a list in an order of its own (`SiteLists`).
    @inlinable
    public mutating func append(unchecked path: UnsafeBufferPointer<UInt8>) {
        spans.append(copy(path))
        allASCII = false
    }

    /// Copies the path and a NUL after it to the end of `bytes`; where the path now is.
    @inlinable
    mutating func copy(_ path: UnsafeBufferPointer<UInt8>) -> Range<Int> {
        let start = bytes.count
        bytes.append(contentsOf: path)
        bytes.append(0)
        return start..<(start + path.count)
    }

    @inlinable
    public mutating func insert(_ path: String, at index: Int) {
        spans.insert(store(path), at: index)
    }

    @inlinable
    public mutating func remove(at index: Int) {
        spans.remove(at: index)
    }

    /// Sets the value of `path` in `values`, kept beside these paths index for index, at
    /// its `place` (found there, or to go there): replaced, inserted with its path, or
    /// removed with it when `value` is nil.
    @inlinable
    public mutating func set<Value>(_ value: Value?, of path: String, at place: (index: Int, found: Bool), in values: inout [Value]) {
        switch (value, place.found) {
        case (let value?, true): values[place.index] = value
        case (let value?, false):
            insert(path, at: place.index)
            values.insert(value, at: place.index)
        case (nil, true):
            remove(at: place.index)
            values.remove(at: place.index)
        case (nil, false): break
        }
    }

    @inlinable
    mutating func store(_ path: String) -> Range<Int> {
        var path = path
        return path.withUTF8 { utf8 in
            if allASCII { allASCII = utf8.isASCII }
            return copy(utf8)
        }
    }

    @inlinable
    public func withBytes<Result>(at index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        bytes.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[spans[index]])) }
    }

    /// Whether the path at `index` has the bytes of `path`.
    @inlinable
    public func isSame(at index: Int, as path: String) -> Bool {
        withView { $0.isSame(at: index, as: path) }
    }

    /// How the path at `index` compares with `path` in `String`'s order: -1 before, 0 the
    /// same, 1 after.
    @inlinable
    public func order(at index: Int, _ path: String) -> Int {
        withView { $0.order(at: index, path) }
    }

    /// The paths' bytes in place, for comparing many in one pass.
    @inlinable
    public func withView<Result>(_ body: (View) -> Result) -> Result {
        bytes.withUnsafeBufferPointer { bytes in
            spans.withUnsafeBufferPointer { spans in body(View(bytes: bytes, spans: spans, allASCII: allASCII)) }
        }
    }

    public struct View {
        @usableFromInline let bytes: UnsafeBufferPointer<UInt8>
        @usableFromInline let spans: UnsafeBufferPointer<Range<Int>>
        @usableFromInline let allASCII: Bool

        @usableFromInline
        init(bytes: UnsafeBufferPointer<UInt8>, spans: UnsafeBufferPointer<Range<Int>>, allASCII: Bool) {
            self.bytes = bytes
            self.spans = spans
            self.allASCII = allASCII
        }

        @inlinable
        public subscript(index: Int) -> UnsafeBufferPointer<UInt8> {
            UnsafeBufferPointer(rebasing: bytes[spans[index]])
        }

        /// The path at `index` as a C string.
        @inlinable
        public func cString(at index: Int) -> UnsafePointer<UInt8> {
            bytes.baseAddress! + spans[index].lowerBound
        }

        @inlinable
        public func isSame(at index: Int, as path: String) -> Bool {
            let mine = self[index]
            return path.utf8.withContiguousStorageIfAvailable { PackedPaths.order(mine, $0) == 0 }
                ?? (Array(mine) == Array(path.utf8))
        }

        @inlinable
        public func order(at index: Int, _ path: String) -> Int {
            let mine = self[index]
            let fast = allASCII ? path.utf8.withContiguousStorageIfAvailable { $0.isASCII ? PackedPaths.order(mine, $0) : nil } ?? nil : nil
            if let fast { return fast }
            let string = String(decoding: mine, as: UTF8.self)
            return string == path ? 0 : (string < path ? -1 : 1)
        }
    }

    /// The same paths, in the same order, whatever bytes either keeps unused.
    @inlinable
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.count == rhs.count && lhs.withView { left in rhs.withView { right in lhs.indices.allSatisfy { left[$0].elementsEqual(right[$0]) } } }
    }

    /// What `body` makes of the path of the file `name` in `folder`, put together on the
    /// stack, not made a string first (the model store asks for every article's page).
    @inlinable
    public static func joining<Result>(_ folder: String, _ name: StaticString, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        joining(folder, UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount), body)
    }

    @inlinable
    public static func joining<Result>(_ folder: String, _ name: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        var folder = folder
        return folder.withUTF8 { folder in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: folder.count + name.count) { path in
                _ = path.initialize(fromContentsOf: folder)
                _ = path[folder.count...].initialize(fromContentsOf: name)
                return body(UnsafeBufferPointer(path))
            }
        }
    }

    /// The order of two runs of bytes: -1, 0 or 1.
    @inlinable
    public static func order(_ first: UnsafeBufferPointer<UInt8>, _ second: UnsafeBufferPointer<UInt8>) -> Int {
        let common = Swift.min(first.count, second.count)
        let order = common == 0 ? 0 : memcmp(first.baseAddress!, second.baseAddress!, common)
        if order != 0 { return order < 0 ? -1 : 1 }
        return first.count == second.count ? 0 : (first.count < second.count ? -1 : 1)
    }
}
