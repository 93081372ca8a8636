import Foundation
@testable import SitegenFiles
import SitegenSupport
import SitegenPlatform
import Testing

/// Pages written over the output's are swapped in whole, and the page each replaced is
/// written over for the next only when no one can see it: not while someone has it open,
/// nor when another name links to it.
@Suite("Replacing files of the output")
struct FileReplacerTests {
    private let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sitegen-replacer-\(UUID().uuidString)")

    private func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    private func make(_ files: [String: String]) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (name, text) in files { try Data(text.utf8).write(to: folder.appendingPathComponent(name)) }
    }

    private func text(_ name: String) -> String? {
        (try? Data(contentsOf: folder.appendingPathComponent(name))).map { String(decoding: $0, as: UTF8.self) }
    }

    @discardableResult
    private func replace(_ name: String, with text: String, by replacer: FileReplacer) throws -> Int64 {
        try Array(text.utf8).withUnsafeBufferPointer { try replacer.replace(path(name), with: $0) }
    }

    private func inode(_ name: String) -> ino_t {
        var info = stat()
        stat(path(name), &info)
        return info.st_ino
    }

    private func mode(_ name: String) -> mode_t {
        var info = stat()
        stat(path(name), &info)
        return info.st_mode & 0o7777
    }

    @Test func putsEachFilesNewBytesInPlaceAndLeavesNoSpareBehind() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let long = String(repeating: "a long page ", count: 2_000)
        try make(["a.html": long, "b.html": "short", "c.html": "", "d.html": "four"])
        let oldA = inode("a.html")
        let replacer = FileReplacer(in: folder.path)
        // Each next page is written over the one before: longer, shorter, empty.
        let times = try [("a.html", "short now"), ("b.html", long + "and longer"), ("c.html", "was empty"), ("d.html", "")].map { name, text in
            (name, try replace(name, with: text, by: replacer))
        }
        replacer.finish()
        // No file made or freed but the first spare: b's page went into a's old file.
        #expect(inode("b.html") == oldA)
        #expect(text("a.html") == "short now")
        #expect(text("b.html") == long + "and longer")
        #expect(text("c.html") == "was empty")
        #expect(text("d.html") == "")
        for (name, time) in times {
            var info = stat()
            stat(path(name), &info)
            #expect(OutputManifest.time(of: info) == time, "\(name)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["a.html", "b.html", "c.html", "d.html"])
    }

    /// A reader that opened the old page before it was replaced (a web server sending it)
    /// reads the old page to its end.
    @Test func aFileSomeoneHasOpenKeepsItsBytesForThem() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try make(["a.html": "the old a", "b.html": "the old b"])
        let reader = open(path("a.html"), O_RDONLY)
        #expect(reader >= 0)
        defer { close(reader) }
        let oldA = inode("a.html")
        let replacer = FileReplacer(in: folder.path)
        try replace("a.html", with: "the new a", by: replacer)
        try replace("b.html", with: "the new b, longer than the old", by: replacer)
        try replace("a.html", with: "the newest a", by: replacer)
        replacer.finish()
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = pread(reader, &buffer, buffer.count, 0)
        #expect(String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self) == "the old a")
        #expect(inode("b.html") != oldA)
        #expect(text("a.html") == "the newest a")
        #expect(text("b.html") == "the new b, longer than the old")
    }

    /// A backup made with hard links (`cp -al`, `rsync --link-dest`) keeps what it saved.
    @Test func aFileWithAnotherNameKeepsItsBytesThere() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try make(["a.html": "the old a", "b.html": "the old b"])
        #expect(link(path("a.html"), path("backup-a.html")) == 0)
        let oldA = inode("a.html")
        let replacer = FileReplacer(in: folder.path)
        try replace("a.html", with: "the new a", by: replacer)
        try replace("b.html", with: "the new b", by: replacer)
        replacer.finish()
        #expect(text("backup-a.html") == "the old a")
        #expect(inode("b.html") != oldA)
        #expect(text("a.html") == "the new a")
        #expect(text("b.html") == "the new b")
    }

    /// A page someone made private does not pass its permissions on to the page written
    /// over it next; every page gets those of a new file.
    @Test func aPageWrittenOverGetsThePermissionsOfANewFile() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try make(["a.html": "a", "b.html": "b", "c.html": "c"])
        let usual = mode("b.html")
        chmod(path("a.html"), 0o600)
        let replacer = FileReplacer(in: folder.path)
        try replace("a.html", with: "new a", by: replacer)
        try replace("b.html", with: "new b", by: replacer)
        try replace("c.html", with: "new c", by: replacer)
        replacer.finish()
        #expect(mode("a.html") == usual)
        #expect(mode("b.html") == usual)
        #expect(mode("c.html") == usual)
    }

    /// A process that opens an old page in the instant its lease is taken breaks the lease,
    /// which signals SIGIO: sitegen ignores it rather than end.
    @Test func aBrokenLeaseDoesNotEndTheProcess() {
        _ = FileReplacer(in: folder.path)
        var current = sigaction()
        #expect(sigaction(SIGIO, nil, &current) == 0)
        #expect(current.__sigaction_handler.sa_handler != nil)
    }

    /// Through the write stage: pages held in memory replace the output's, and a new page
    /// is written where there was none.
    @Test func theWriteStagePutsHeldPagesInPlace() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try make(["a.html": "the old a", "b.html": "the old b"])
        let files = [("a.html", "the new a"), ("b.html", "the new b"), ("c.html", "a new page")].map { name, text in
            OutputFile(path: name, contents: .held(Array(text.utf8), hash: ContentHash.value(Array(text.utf8))))
        }
        let result = try OutputWriter.write(files, to: folder)
        #expect(result.written == 3)
        #expect(text("a.html") == "the new a")
        #expect(text("b.html") == "the new b")
        #expect(text("c.html") == "a new page")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["a.html", "b.html", "c.html"])
        #expect(result.manifest["a.html"]?.hash == ContentHash.value(Array("the new a".utf8)))
    }

    /// A build stopped in its write stage (killed) leaves its spare at the top of the
    /// output, where hidden files are kept: the next build's search for stale files removes
    /// it, and only it.
    @Test func aSpareAStoppedBuildLeftIsRemovedByTheNext() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try make(["a.html": "a", ".gitkeep": "", ".sitegen-4242-spare-1": "half a page"])
        let files = [OutputFile(path: "a.html", contents: .bytes(Array("a".utf8)))]
        let result = try OutputWriter.write(files, to: folder)
        #expect(result.removed == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == [".gitkeep", "a.html"])
    }

    /// Past the memory a rebuild may hold, pages wait in files beside the output, moved
    /// over the output's in the same way.
    @Test func pagesPastTheMemoryLimitAreStagedInFilesAndMovedInPlace() throws {
        let output = folder.appendingPathComponent("Output")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        for (name, text) in [("a.html", "the old a"), ("b.html", "the old b"), ("c.html", "the same c")] {
            try Data(text.utf8).write(to: output.appendingPathComponent(name))
        }
        let staging = try #require(OutputStaging(output: output, heldLimit: 12))
        #expect(!staging.mirrorsOutput)
        let files = [("a.html", "the new a"), ("b.html", "the new b"), ("c.html", "the same c"), ("d.html", "a new page")].map { name, text in
            staging.stage(name, Array(text.utf8), previous: nil)
        }
        let kinds = files.map { file -> String in
            switch file.contents {
            case .held: "held"
            case .staged: "staged"
            case .unchanged: "unchanged"
            case .bytes, .copy: "other"
            }
        }
        #expect(kinds == ["held", "staged", "unchanged", "staged"])
        let result = try OutputWriter.write(files, to: output, staging: staging)
        staging.remove()
        #expect(result.written == 3)
        #expect(result.unchanged == 1)
        for (name, text) in [("a.html", "the new a"), ("b.html", "the new b"), ("c.html", "the same c"), ("d.html", "a new page")] {
            #expect(String(decoding: try Data(contentsOf: output.appendingPathComponent(name)), as: UTF8.self) == text)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: output.path).sorted() == ["a.html", "b.html", "c.html", "d.html"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["Output"])
    }
}
