import Foundation
import SitegenPlatform
import SitegenSupport
import Synchronization

/// Lists a folder's files with `readdir`, skipping hidden ones and anything that is not a
/// plain file or folder (a FIFO would hang the build), never following a symbolic link to
/// a place outside the site or around in a circle.
public struct SourceWalker {
    public let realRoot: String
    public let known: FolderListings
    public let settledBefore: Int64
    /// This walk's listings: those of `known` for folders that did not change, the others
    /// as read, of folders that changed before `settledBefore` and hold only plain files
    /// and folders (a link's target can change without its folder changing).
    public var listed = FolderListings()
    public var problems: [Diagnostic] = []

    public init(realRoot: String, known: FolderListings, settledBefore: Int64) {
        self.realRoot = realRoot
        self.known = known
        self.settledBefore = settledBefore
    }

    public enum EntryType: Sendable { case file, folder, other, missing }

    /// Calls `each` with every file below `folder`, by its path relative to it, and its
    /// stamp, in the order of `String`'s `<` on those paths.
    public mutating func files(in folder: String, display: String, each: (consuming String, FileStamp) -> Void) {
        walk(folder, relative: "", display: display, visited: [], each: each)
    }

    public mutating func folders(in folder: String) -> [String] {
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        let listing = DirectoryListing(directory)
        return listing.entries.indices.compactMap { index in
            let name = listing.name(index)
            return type(of: folder + "/" + name, hint: listing.entries[index].type) == .folder ? name : nil
        }.sorted()
    }

    /// Each folder's entries are sorted on their own, a folder's name as if it ended with
    /// "/": that is the order of the whole paths, and the files come out in it.
    private mutating func walk(_ folder: String, relative: String, display: String, visited: Set<String>, each: (consuming String, FileStamp) -> Void) {
        let real = realPath(folder) ?? folder
        guard !visited.contains(real) else { return }
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        var info = stat()
        let stamp = fstat(descriptor, &info) == 0 ? FolderListings.Stamp(info) : nil
        let visited = visited.union([real])
        if let stamp, let same = known.folders[folder], same.stamp == stamp, let listing = DirectoryListing(same) {
            defer { close(descriptor) }
            let files = listing.fileIndices
            listed.folders[folder] = same
            visit(listing, in: Array(listing.entries.indices), files: files, looked: listing.files(files, in: descriptor, under: relative),
                  folder: folder, relative: relative, display: display, visited: visited, each: each)
            return
        }
        guard let directory = fdopendir(descriptor) else {
            close(descriptor)
            return
        }
        defer { closedir(directory) }
        var listing = DirectoryListing(directory)
        resolveKinds(&listing, folder: folder, relative: relative, display: display)
        let keepable = listing.entries.allSatisfy { ($0.type == DT_REG && $0.kind == .file) || ($0.type == DT_DIR && $0.kind == .folder) }
        // The same names as the last build found, in a folder whose time changed: a file
        // replaced by a rename, as many editors save one. They are taken in the order kept,
        // not sorted again.
        if let stamp, keepable, let same = known.folders[folder], listing.names(areTheSameAs: same), let kept = DirectoryListing(same) {
            let files = kept.fileIndices
            if stamp.modified < settledBefore, stamp.changed < settledBefore {
                listed.folders[folder] = FolderListings.Folder(stamp: stamp, names: same.names, isFolder: same.isFolder)
            }
            visit(kept, in: Array(kept.entries.indices), files: files, looked: kept.files(files, in: descriptor, under: relative),
                  folder: folder, relative: relative, display: display, visited: visited, each: each)
            return
        }
        let files = listing.fileIndices
        // A large folder is put in order on another core while its files are looked up.
        let sorting = files.count > DirectoryListing.run ? Concurrently { [listing] in listing.sortedOrder() } : nil
        let looked = listing.files(files, in: descriptor, under: relative)
        let order = sorting?.wait() ?? listing.sortedOrder()
        if let stamp, stamp.modified < settledBefore, stamp.changed < settledBefore, keepable {
            listed.folders[folder] = listing.kept(in: order, stamp: stamp)
        }
        visit(listing, in: order, files: files, looked: looked, folder: folder, relative: relative, display: display, visited: visited, each: each)
    }

    /// The kind of every entry readdir did not tell, following links that stay in the site.
    private mutating func resolveKinds(_ listing: inout DirectoryListing, folder: String, relative: String, display: String) {
        for index in listing.entries.indices {
            var hint = listing.entries[index].type
            if hint == DT_REG {
                listing.entries[index].kind = .file
                continue
            }
            let name = listing.name(index)
            let path = folder + "/" + name
            if hint == DT_LNK {
                let target = realPath(path) ?? ""
                guard target == realRoot || target.hasPrefix(realRoot + "/") else {
                    problems.append(.error(at: SourceLocation(path: display + relative + name, line: 1, column: 1),
                                           "symbolic link leads outside the site (to \(target.isEmpty ? "nowhere" : target)); sitegen does not follow it"))
                    continue
                }
                hint = UInt8(DT_UNKNOWN)
            }
            let kind = type(of: path, hint: hint)
            listing.entries[index].kind = kind
            if kind == .other {
                problems.append(.note(at: SourceLocation(path: display + relative + name, line: 1, column: 1), "not a regular file or folder: sitegen skips it"))
            }
        }
    }

    /// Calls `each` with the files of `listing` (`looked`: the paths and stamps of the
    /// entries at `files`) and walks its folders, all in `order`.
    private mutating func visit(_ listing: DirectoryListing, in order: [Int], files: [Int], looked: consuming [(String, FileStamp)?], folder: String, relative: String,
                                display: String, visited: Set<String>, each: (consuming String, FileStamp) -> Void) {
        var looked = looked
        var position = [Int](repeating: 0, count: listing.entries.count)
        for (place, index) in files.enumerated() { position[index] = place }
        // Each path is moved out of `looked` rather than copied: a copy and the release of
        // the original touched the count of every string once more, made on another core.
        looked.withUnsafeMutableBufferPointer { looked in
            for index in order {
                switch listing.entries[index].kind {
                case .folder:
                    let name = listing.name(index)
                    walk(folder + "/" + name, relative: relative + name + "/", display: display, visited: visited, each: each)
                case .file:
                    let slot = looked.baseAddress! + position[index]
                    if let (path, stamp) = slot.move() { each(path, stamp) }
                    slot.initialize(to: nil)
                case .other, .missing:
                    continue
                }
            }
        }
    }

    /// The type of `path`, following links; `hint` is readdir's answer when it knows.
    private func type(of path: String, hint: UInt8) -> EntryType {
        switch Int32(hint) {
        case Int32(DT_DIR): return .folder
        case Int32(DT_REG): return .file
        case Int32(DT_UNKNOWN), Int32(DT_LNK):
            var info = stat()
            guard stat(path, &info) == 0 else { return .missing }
            switch info.st_mode & S_IFMT {
            case S_IFDIR: return .folder
            case S_IFREG: return .file
            default: return .other
            }
        default:
            return .other
        }
    }

    private func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}

/// One folder's entries but hidden ones (and "." and ".."), their names in one buffer: a
/// string per name, sorted as strings, takes longer than the kernel takes to look the
/// files up.
public struct DirectoryListing: Sendable {
    public struct Entry: Sendable {
        /// Where the name is in `names`, and its length (without the NUL after it).
        public var start: Int
        public var count: Int
        /// readdir's type.
        public var type: UInt8
        public var kind = SourceWalker.EntryType.missing
    }

    /// The names, each followed by a NUL for the system calls.
    public var names: [UInt8] = []
    public var entries: [Entry] = []
    private var isASCII = true

    public init(_ directory: OpaquePointer) {
        let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
        while let entry = readdir(directory) {
            let name = (UnsafeRawPointer(entry) + nameOffset).assumingMemoryBound(to: UInt8.self)
            guard name.pointee != UInt8(ascii: ".") else { continue }
            let count = strlen(name)
            let bytes = UnsafeBufferPointer(start: name, count: count + 1)
            entries.append(Entry(start: names.count, count: count, type: entry.pointee.d_type))
            names.append(contentsOf: bytes)
            if isASCII { isASCII = UnsafeBufferPointer(start: name, count: count).isASCII }
        }
    }

    /// The names of a folder as `FolderListings` kept them, in the order they were kept;
    /// nil unless they are as many as the kinds kept with them.
    public init?(_ kept: FolderListings.Folder) {
        names = kept.names
        var entries: [Entry] = []
        entries.reserveCapacity(kept.isFolder.count)
        let split = DirectoryListing.split(kept) { start, count, isFolder in
            entries.append(Entry(start: start, count: count, type: UInt8(isFolder ? DT_DIR : DT_REG), kind: isFolder ? .folder : .file))
        }
        guard split else { return nil }
        self.entries = entries
    }

    /// Calls `each` with where each name of `kept` starts in its bytes, its length and
    /// whether it is a folder; false when the names are not as many as the kinds, or one
    /// is empty.
    private static func split(_ kept: FolderListings.Folder, _ each: (_ start: Int, _ count: Int, _ isFolder: Bool) -> Void) -> Bool {
        kept.names.withUnsafeBufferPointer { names in
            var start = 0
            for isFolder in kept.isFolder {
                guard start < names.count, let end = memchr(names.baseAddress! + start, 0, names.count - start) else { return false }
                let count = UnsafeRawPointer(end) - UnsafeRawPointer(names.baseAddress! + start)
                guard count > 0 else { return false }
                each(start, count, isFolder)
                start += count + 1
            }
            return start == names.count
        }
    }

    /// The listing as `FolderListings` keeps it: the names in `order`.
    public func kept(in order: [Int], stamp: FolderListings.Stamp) -> FolderListings.Folder {
        var sorted: [UInt8] = []
        sorted.reserveCapacity(names.count)
        var isFolder: [Bool] = []
        isFolder.reserveCapacity(order.count)
        for index in order {
            let entry = entries[index]
            sorted.append(contentsOf: names[entry.start...(entry.start + entry.count)])
            isFolder.append(entry.kind == .folder)
        }
        return FolderListings.Folder(stamp: stamp, names: sorted, isFolder: isFolder)
    }

    /// The indices of the entries that are files.
    public var fileIndices: [Int] { entries.indices.filter { entries[$0].kind == .file } }

    /// Whether the entries are the names and kinds of `kept`, in any order: as many, and
    /// the same sum and the same exclusive or of a hash of each (name and kind), which
    /// two different sets of names match by chance one time in 2^64 or fewer.
    public func names(areTheSameAs kept: FolderListings.Folder) -> Bool {
        guard entries.count == kept.isFolder.count else { return false }
        func hash(_ name: UnsafeBufferPointer<UInt8>, isFolder: Bool) -> UInt64 {
            var print = Fingerprint()
            print.add(UnsafeRawBufferPointer(name))
            print.add(isFolder ? 1 : 0)
            return print.value
        }
        var mine: (sum: UInt64, xor: UInt64) = (0, 0)
        names.withUnsafeBufferPointer { names in
            for entry in entries {
                let value = hash(UnsafeBufferPointer(rebasing: names[entry.start..<entry.start + entry.count]), isFolder: entry.kind == .folder)
                mine = (mine.sum &+ value, mine.xor ^ value)
            }
        }
        var theirs: (sum: UInt64, xor: UInt64) = (0, 0)
        let whole = kept.names.withUnsafeBufferPointer { names in
            DirectoryListing.split(kept) { start, count, isFolder in
                let value = hash(UnsafeBufferPointer(rebasing: names[start..<start + count]), isFolder: isFolder)
                theirs = (theirs.sum &+ value, theirs.xor ^ value)
            }
        }
        return whole && mine == theirs
    }

    public func name(_ index: Int) -> String {
        let entry = entries[index]
        return String(decoding: names[entry.start..<entry.start + entry.count], as: UTF8.self)
    }

    /// `relative` and the entry's name, put together on the stack and made a string in one
    /// allocation. Written into the string's own storage, each path would be validated as
    /// UTF-8 a byte at a time; decoded, an ASCII path is checked eight bytes at a time. Every
    /// rebuild makes one for each source.
    public func path(_ index: Int, in relative: String) -> String {
        let entry = entries[index]
        return names.withUnsafeBufferPointer { names in
            PackedPaths.joining(relative, UnsafeBufferPointer(rebasing: names[entry.start..<(entry.start + entry.count)])) { String(decoding: $0, as: UTF8.self) }
        }
    }

    /// The entries' indices in the order of their names, a folder's name as if it ended
    /// with "/". ASCII names compare as bytes, others as strings.
    public func sortedOrder() -> [Int] {
        guard isASCII else {
            let keys = entries.indices.map { name($0) + (entries[$0].kind == .folder ? "/" : "") }
            return entries.indices.sorted { keys[$0] < keys[$1] }
        }
        // Each name as it sorts, NUL-terminated: followed by "/" for a folder. Zeros after
        // the last let every key be read eight bytes at a time.
        var keys: [UInt8] = []
        keys.reserveCapacity(names.count + entries.count + 24)
        var starts: [Int] = []
        starts.reserveCapacity(entries.count)
        for entry in entries {
            starts.append(keys.count)
            keys.append(contentsOf: names[entry.start..<entry.start + entry.count])
            if entry.kind == .folder { keys.append(UInt8(ascii: "/")) }
            keys.append(0)
        }
        keys.append(contentsOf: repeatElement(0, count: 24))
        return keys.withUnsafeBufferPointer { keys in
            let base = UnsafeRawPointer(keys.baseAddress!)
            // The first 24 bytes of each key as three big-endian numbers, zeros past its end:
            // they settle most comparisons.
            var prefixes = [UInt64](repeating: 0, count: 3 * starts.count)
            for index in starts.indices {
                let start = starts[index]
                let length = entries[index].count + (entries[index].kind == .folder ? 1 : 0)
                for word in 0..<3 where length > word * 8 {
                    let value = UInt64(bigEndian: base.loadUnaligned(fromByteOffset: start + word * 8, as: UInt64.self))
                    prefixes[3 * index + word] = length - word * 8 >= 8 ? value : value & ~(UInt64.max >> UInt64((length - word * 8) * 8))
                }
            }
            return prefixes.withUnsafeBufferPointer { prefixes in
                func samePrefix(_ a: Int, _ b: Int) -> Bool {
                    prefixes[3 * a] == prefixes[3 * b] && prefixes[3 * a + 1] == prefixes[3 * b + 1] && prefixes[3 * a + 2] == prefixes[3 * b + 2]
                }
                func precedes(_ a: Int, _ b: Int) -> Bool {
                    for word in 0..<3 where prefixes[3 * a + word] != prefixes[3 * b + word] { return prefixes[3 * a + word] < prefixes[3 * b + word] }
                    return strcmp((base + starts[a] + 24).assumingMemoryBound(to: CChar.self), (base + starts[b] + 24).assumingMemoryBound(to: CChar.self)) < 0
                }
                guard entries.count > Self.radixSortFrom else { return entries.indices.sorted(by: precedes) }
                var order = Self.radixOrder(prefixes)
                // Keys that share their first 24 bytes are next to each other now, in no
                // order: a few at a time, put in order by insertion.
                order.withUnsafeMutableBufferPointer { order in
                    var runStart = 0
                    for position in 1..<order.count {
                        if !samePrefix(order[position], order[runStart]) {
                            runStart = position
                            continue
                        }
                        let moving = order[position]
                        var place = position
                        while place > runStart, precedes(moving, order[place - 1]) {
                            order[place] = order[place - 1]
                            place -= 1
                        }
                        order[place] = moving
                    }
                }
                return order
            }
        }
    }

    /// Fewer entries are sorted by comparisons: the radix passes cost a table of 256
    /// counts each.
    private static let radixSortFrom = 256

    /// The indices of the keys whose 24-byte prefixes are `prefixes` (three words each),
    /// sorted by those bytes last byte first, a pass for each byte that not all of them
    /// have the same: fewer steps than a comparison sort of a large folder's names.
    private static func radixOrder(_ prefixes: UnsafeBufferPointer<UInt64>) -> [Int] {
        let count = prefixes.count / 3
        var differing = [UInt64](repeating: 0, count: 3)
        for index in 0..<count {
            for word in 0..<3 { differing[word] |= prefixes[3 * index + word] ^ prefixes[word] }
        }
        var order = Array(0..<count)
        var other = order
        var tally = [Int](repeating: 0, count: 256)
        for position in (0..<24).reversed() {
            let word = position / 8
            let shift = UInt64((7 - position % 8) * 8)
            guard (differing[word] >> shift) & 0xFF != 0 else { continue }
            tally.withUnsafeMutableBufferPointer { tally in
                tally.update(repeating: 0)
                for index in 0..<count { tally[Int(truncatingIfNeeded: prefixes[3 * index + word] >> shift) & 0xFF] += 1 }
                var total = 0
                for value in 0..<256 {
                    let count = tally[value]
                    tally[value] = total
                    total += count
                }
                order.withUnsafeBufferPointer { from in
                    other.withUnsafeMutableBufferPointer { to in
                        for index in from {
                            let value = Int(truncatingIfNeeded: prefixes[3 * index + word] >> shift) & 0xFF
                            to[tally[value]] = index
                            tally[value] += 1
                        }
                    }
                }
            }
            swap(&order, &other)
        }
        return order
    }

    /// Files are looked up on every core, in runs of this many, when there are more.
    public static let run = 256

    /// The paths (`relative` and the name) and stamps of the entries at `indices`, files of
    /// the open folder `folder`, in their order; nil for one that is gone.
    public func files(_ indices: [Int], in folder: Int32, under relative: String) -> [(String, FileStamp)?] {
        parallelMap(indices, inRunsOf: Self.run) { index in
            names.withUnsafeBufferPointer { names in
                FileStamp.of(names.baseAddress! + entries[index].start, in: folder).map { (path(index, in: relative), $0) }
            }
        }
    }
}

extension UnsafeBufferPointer<UInt8> {
    /// Whether no byte has its high bit set, looked at eight at a time.
    public var isASCII: Bool {
        guard let base = baseAddress else { return true }
        var index = 0
        while index + 8 <= count {
            if UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { return false }
            index += 8
        }
        while index < count {
            if base[index] >= 0x80 { return false }
            index += 1
        }
        return true
    }
}
