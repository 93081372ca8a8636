import SitegenSupport

/// Values by path — the output's files, its folders and its pages, relative to it — with
/// the paths in the order of their bytes in one buffer (`PackedPaths`): read back from the
/// cache without a string or a hash for each, looked up by binary search, and handed to
/// `stat` as they are. Paths are told apart by their bytes, as the file system tells names
/// apart.
public struct PathTable<Value: Sendable>: Sendable {
    /// Kept apart from what the table shows, so that the table's inlined code may change
    /// them and other code only read them.
    @usableFromInline var packed = PackedPaths()
    @usableFromInline var kept: [Value] = []

    @inlinable
    public var paths: PackedPaths { packed }
    @inlinable
    public var values: [Value] { kept }

    @inlinable
    public init() {}

    /// The dictionary's paths put in the order of their bytes: first packed as they come,
    /// then their places sorted by comparing the packed bytes, not the pairs through the
    /// strings' UTF-8 views.
    @inlinable
    public init(_ dictionary: [String: Value]) {
        var unsorted = PackedPaths()
        unsorted.reserveCapacity(dictionary.count)
        var unsortedValues: [Value] = []
        unsortedValues.reserveCapacity(dictionary.count)
        for (path, value) in dictionary {
            unsorted.append(path)
            unsortedValues.append(value)
        }
        reserveCapacity(dictionary.count)
        unsorted.withView { view in
            for index in unsorted.indices.sorted(by: { PackedPaths.order(view[$0], view[$1]) < 0 }) {
                packed.append(unchecked: view[index])
                kept.append(unsortedValues[index])
            }
        }
    }

    @inlinable
    public mutating func reserveCapacity(_ count: Int) {
        packed.reserveCapacity(count)
        kept.reserveCapacity(count)
    }

    @inlinable
    public var count: Int { values.count }
    @inlinable
    public var isEmpty: Bool { values.isEmpty }

    /// Every path, made into strings.
    @inlinable
    public var keys: [String] { Array(paths) }

    /// Adds a path given as bytes that comes after every path of the table; false, adding
    /// nothing, when it does not (a table read back is in order, or not trusted).
    @inlinable
    public mutating func append(_ path: UnsafeBufferPointer<UInt8>, _ value: Value) -> Bool {
        if let last = paths.indices.last, paths.withView({ PackedPaths.order($0[last], path) }) >= 0 { return false }
        packed.append(unchecked: path)
        kept.append(value)
        return true
    }

    /// Where `path` is, or would go.
    @inlinable
    func place(of path: String) -> (index: Int, found: Bool) {
        if let place = path.utf8.withContiguousStorageIfAvailable({ place(of: $0) }) { return place }
        return Array(path.utf8).withUnsafeBufferPointer { place(of: $0) }
    }

    @inlinable
    func place(of key: UnsafeBufferPointer<UInt8>) -> (index: Int, found: Bool) {
        paths.withView { view in
            let index = paths.indices.partitioningIndex { PackedPaths.order(view[$0], key) >= 0 }
            return (index, index < count && PackedPaths.order(view[index], key) == 0)
        }
    }

    @inlinable
    public subscript(path: String) -> Value? {
        get {
            let (index, found) = place(of: path)
            return found ? values[index] : nil
        }
        set {
            packed.set(newValue, of: path, at: place(of: path), in: &kept)
        }
    }

    @inlinable
    public subscript(bytes path: UnsafeBufferPointer<UInt8>) -> Value? {
        let (index, found) = place(of: path)
        return found ? values[index] : nil
    }

    /// The value of the file `name` in `folder` (`articles/toast/` and `index.html`).
    @inlinable
    public subscript(folder folder: String, name name: StaticString) -> Value? {
        PackedPaths.joining(folder, name) { self[bytes: $0] }
    }

    /// `other`'s values in place of this table's, path by path: each inserted where it
    /// goes when they are few (the files one edit wrote), the whole table sorted anew when
    /// they are many.
    @inlinable
    public mutating func merge(_ other: [String: Value]) {
        guard other.count > 64 else {
            for (path, value) in other { self[path] = value }
            return
        }
        var all = Dictionary(uniqueKeysWithValues: zip(keys, values))
        all.merge(other) { _, new in new }
        self = PathTable(all)
    }

    /// The entries of `paths`, every one of which the table holds.
    @inlinable
    public func only(_ paths: Set<String>) -> PathTable {
        PathTable(Dictionary(uniqueKeysWithValues: paths.map { ($0, self[$0]!) }))
    }

    @inlinable
    public mutating func merge(_ other: PathTable<Value>) {
        merge(Dictionary(uniqueKeysWithValues: zip(other.keys, other.values)))
    }

    /// Whether `matches` holds for the stamp of every path (relative to the open folder
    /// `root`; the empty path is `root` itself) and its value, looked at on both cores.
    @inlinable
    public func allMatch(in root: OpenFolder, _ matches: @Sendable (FileStamp?, Value) -> Bool) -> Bool {
        allMatch(in: root, matches, along: PathTable(), matches)
    }

    /// Whether `matches` holds for every path of this table and `otherMatches` for every
    /// path of `other`, looked at on both cores in the order of all their paths together.
    /// The paths are in order, so most share their first folder with the one before: it
    /// is opened once and the rest of each path looked up from it, rather than the kernel
    /// looking the first folders up again for every path. And a folder comes right before
    /// its files (the output's folders along its files), whose lookups then find what the
    /// kernel just read of the folder still in the processor's caches.
    @inlinable
    public func allMatch<Other: Sendable>(in root: OpenFolder, _ matches: @Sendable (FileStamp?, Value) -> Bool,
                                   along other: PathTable<Other>, _ otherMatches: @Sendable (FileStamp?, Other) -> Bool) -> Bool {
        let table = self
        let order = mergedOrder(with: other)
        let run = 256
        return !parallelMap(Array(stride(from: 0, to: order.count, by: run))) { start in
            table.paths.withView { view in
                other.paths.withView { otherView in
                    var first = FirstFolder(root: root)
                    return order[start..<Swift.min(start + run, order.count)].allSatisfy { place in
                        place >= 0 ? matches(first.stamp(of: place, in: view), table.values[place])
                            : otherMatches(first.stamp(of: ~place, in: otherView), other.values[~place])
                    }
                }
            }
        }.contains(false)
    }

    /// The places of this table's paths (`index`) and `other`'s (`~index`), in the order
    /// of all the paths.
    @inlinable
    func mergedOrder<Other>(with other: PathTable<Other>) -> [Int] {
        var order: [Int] = []
        order.reserveCapacity(count + other.count)
        paths.withView { view in
            other.paths.withView { otherView in
                var mine = 0
                var theirs = 0
                while mine < count || theirs < other.count {
                    if theirs == other.count || (mine < count && PackedPaths.order(view[mine], otherView[theirs]) <= 0) {
                        order.append(mine)
                        mine += 1
                    } else {
                        order.append(~theirs)
                        theirs += 1
                    }
                }
            }
        }
        return order
    }
}

/// The first folder of the last path looked at, held open (`PathTable.allMatch`).
@usableFromInline
struct FirstFolder {
    @usableFromInline let root: OpenFolder
    @usableFromInline var name: [UInt8]?
    @usableFromInline var folder: OpenFolder?

    @inlinable
    init(root: OpenFolder) {
        self.root = root
    }

    /// The stamp of the path at `index` of `view`, relative to `root`.
    @inlinable
    mutating func stamp(of index: Int, in view: PackedPaths.View) -> FileStamp? {
        let path = view[index]
        if path.isEmpty { return root.stamp(of: ".") }
        guard let slash = path.firstIndex(of: UInt8(ascii: "/")) else { return FileStamp.of(view.cString(at: index), in: root.descriptor) }
        return named(UnsafeBufferPointer(rebasing: path[..<slash])).flatMap { FileStamp.of(view.cString(at: index) + slash + 1, in: $0.descriptor) }
    }

    /// The folder `name` in `root`, opened unless it is the last one asked for; nil when it
    /// cannot be (then nothing below it can be looked at either).
    @inlinable
    mutating func named(_ name: UnsafeBufferPointer<UInt8>) -> OpenFolder? {
        if let known = self.name, known.withUnsafeBufferPointer({ PackedPaths.order($0, name) == 0 }) { return folder }
        let bytes = Array(name)
        self.name = bytes
        folder = (bytes + [0]).withUnsafeBufferPointer { cName in
            cName.withMemoryRebound(to: CChar.self) { OpenFolder($0.baseAddress!, in: root.descriptor) }
        }
        return folder
    }
}
