import Foundation
@testable import SitegenFiles
import SitegenPlatform
import SitegenSupport
import Synchronization
import Testing

@Suite("Reading a source file")
struct FileReaderTests {
    /// A folder with a file of `count` bytes (a repeating pattern), open; closed by the caller.
    private func folder(withFileOf count: Int) throws -> (url: URL, descriptor: Int32, bytes: [UInt8]) {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("sitegen-reader-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        try Data(bytes).write(to: url.appendingPathComponent("a.md"))
        return (url, open(url.path, O_RDONLY | O_DIRECTORY), bytes)
    }

    @Test(arguments: [0, 1, 4_096, 200_000])
    func readsTheWholeFileWhateverSizeTheWalkFound(count: Int) throws {
        let (url, descriptor, bytes) = try folder(withFileOf: count)
        defer {
            close(descriptor)
            try? FileManager.default.removeItem(at: url)
        }
        // The size found, none, sizes of a file that has since grown (by a byte, by more
        // than the reader's chunk), and of one that has since shrunk.
        // Each also read first without waiting for the disk, as the build reads sources.
        for size in [count, nil, 0, max(count - 1, 0), max(count - 70_000, 0), count + 1, count + 70_000] as [Int?] {
            for notInMemory in [nil, {}] as [(() -> Void)?] {
                let read = FileReader.read("a.md", in: descriptor, size: size, notInMemory: notInMemory)
                #expect(read.map { $0 == bytes } == true, "size \(size.map(String.init) ?? "nil"), \(notInMemory == nil ? "waiting" : "not waiting") first: read \(read?.count ?? -1) of \(count) bytes")
            }
        }
        #expect(FileReader.read("missing.md", in: descriptor, size: 10) == nil)
        #expect(FileReader.read(url.appendingPathComponent("a.md").path).map { $0 == bytes } == true)
    }

    @Test func aFileInMemoryIsReadWithoutAskingForTheOnesAfterIt() throws {
        let (url, descriptor, bytes) = try folder(withFileOf: 9_000)
        defer {
            close(descriptor)
            try? FileManager.default.removeItem(at: url)
        }
        _ = FileReader.read("a.md", in: descriptor)
        let asked = Mutex(0)
        // As the walk found it, and grown since (a file that shrank since reads short of the
        // size found, which is also what a file partly in memory does: it is asked for).
        for size in [9_000, 8_999] {
            let read = FileReader.read("a.md", in: descriptor, size: size, notInMemory: { asked.withLock { $0 += 1 } })
            #expect(read.map { $0 == bytes } == true, "size \(size)")
        }
        #expect(asked.withLock { $0 } == 0)
    }

    /// Sources the kernel dropped from memory (written to disk, then dropped by
    /// `POSIX_FADV_DONTNEED`, as this kind of machine's DAMON drops pages unused for a
    /// minute) read whole, with the ones after them asked for. Where the file system
    /// keeps files only in memory (tmpfs) nothing is dropped and nothing asked for.
    @Test func sourcesOutOfMemoryAreReadWholeAndTheOnesAfterThemAskedFor() throws {
        let names = (0..<300).map { String(format: "%03d-article.md", $0) }
        let root = try siteOfArticles(names)
        defer { try? FileManager.default.removeItem(at: root) }
        let tree = SourceTree.load(siteRoot: root, settledBefore: FolderListings.currentTime() + 3_600_000_000_000)
        #expect(tree.markdown.count == names.count)
        for file in tree.markdown {
            drop(root.path + "/Content/" + file.contentPath)
        }
        // On disk file systems a dropped file is told from one in memory (ext4, xfs, btrfs).
        if let type = KernelFiles.fileSystemType(at: root.path), [0xEF53, 0x5846_5342, 0x9123_683E].contains(type) {
            // A read that must not wait still starts the disk reading the file's first pages,
            // and a fast enough disk (a VM's host cache) sometimes has them before the read
            // looks again: a tiny file is then read whole without the reader asking (7 % of
            // 2,000 tiny files on this kernel and ext4, in C). A file of 4 MB nearly never is,
            // so the reader asks for it — but once in some 150 runs of the whole suite the
            // disk kept up with all of it: dropped and read again until the reader asks, five
            // times at most. A dropped page is not always out when the drop returns (the
            // kernel drops only pages it has taken in from every core's batch): dropped until
            // `mincore` sees it out.
            let bytes = (0..<4_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
            try Data(bytes).write(to: root.appendingPathComponent("large.md"))
            let folder = open(root.path, O_RDONLY | O_DIRECTORY)
            defer { close(folder) }
            var asked = 0
            for _ in 0..<5 where asked == 0 {
                drop(root.path + "/large.md")
                for _ in 0..<50 where isInMemory(root.path + "/large.md") {
                    drop(root.path + "/large.md")
                    usleep(10_000)
                }
                #expect(!isInMemory(root.path + "/large.md"))
                let asks = Mutex(0)
                #expect(FileReader.read("large.md", in: folder, size: bytes.count, notInMemory: { asks.withLock { $0 += 1 } }) == bytes)
                asked = asks.withLock { $0 }
            }
            #expect(asked == 1)
        }
        let read = tree.reading(tree.markdown) { position, file, bytes in (file.contentPath, bytes, position) }
        #expect(read.map(\.0) == names.map { "articles/" + $0 })
        #expect(read.map(\.2) == Array(names.indices))
        #expect(read.allSatisfy { path, bytes, _ in bytes.map { String(decoding: $0, as: UTF8.self) } == String(path.dropFirst("articles/".count)) })
    }

    @Test func aSourceOutOfMemoryAloneAsksForAFewAfterItAndOnesInARowForTwiceAsMany() throws {
        let count = ReadAhead.widest * 8
        let ahead = ReadAhead(Array(repeating: (folder: -1, name: "missing.md"), count: count))
        #expect(ahead.askedBefore == 0)
        ahead.ask(after: 100)
        #expect(ahead.askedBefore == 101 + ReadAhead.narrowest)
        // Each one found near the window asked for last doubles it, up to the widest.
        var position = 101 + ReadAhead.narrowest
        var window = ReadAhead.narrowest
        for _ in 0..<6 {
            window = min(window * 2, ReadAhead.widest)
            ahead.ask(after: position)
            #expect(ahead.askedBefore == position + 1 + window)
            position += 1 + window
        }
        #expect(window == ReadAhead.widest)
        // One far from it: the narrowest again.
        position += ReadAhead.widest * 2
        ahead.ask(after: position)
        #expect(ahead.askedBefore == position + 1 + ReadAhead.narrowest)
        // One whose window was asked for already asks for nothing more.
        ahead.ask(after: position - ReadAhead.widest)
        #expect(ahead.askedBefore == position + 1 + ReadAhead.narrowest)
        ahead.ask(after: count - 1)
        #expect(ahead.askedBefore == count)
    }
}
