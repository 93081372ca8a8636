import Foundation
@testable import SitegenFiles
import Testing

@Suite("Copying static files")
struct FileCopyTests {
    private let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sitegen-copy-\(UUID().uuidString)")

    private func file(_ name: String, _ bytes: [UInt8]) throws -> String {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    private func bytes(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// A photo's worth, more than one call of the kernel's copy or one buffer moves.
    @Test func copiesEveryByteAndTellsTheNewFilesSizeAndTime() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let random = try #require(FileHandle(forReadingAtPath: "/dev/urandom"))
        let photo = [UInt8](random.readData(ofLength: (3 << 20) + 12_345))
        let source = try file("photo.jpg", photo)
        let target = folder.appendingPathComponent("copy.jpg").path
        let copied = try FileCopy.copy(source, to: target, exclusive: true)
        #expect(try bytes(target) == photo)
        #expect(copied.size == photo.count)
        let attributes = try FileManager.default.attributesOfItem(atPath: target)
        let modified = try #require(attributes[.modificationDate] as? Date)
        #expect(abs(Double(copied.modified) / 1e9 - modified.timeIntervalSince1970) < 0.001)
    }

    @Test func copiesAnEmptyFile() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = try file("empty.txt", [])
        let target = folder.appendingPathComponent("copy.txt").path
        #expect(try FileCopy.copy(source, to: target, exclusive: true).size == 0)
        #expect(try bytes(target).isEmpty)
    }

    /// procfs gives its files no size, and the kernel does not copy them: the bytes come
    /// through a buffer, as from any file system the kernel cannot copy from.
    @Test func copiesAFileWhoseSizeSaysNothingOfItsBytes() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let target = folder.appendingPathComponent("status").path
        let copied = try FileCopy.copy("/proc/self/status", to: target, exclusive: true)
        let text = String(decoding: try bytes(target), as: UTF8.self)
        #expect(text.hasPrefix("Name:"))
        #expect(copied.size == text.utf8.count)
    }

    @Test func replacesAFileOnlyWhenNotExclusive() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = try file("new.css", Array("body{}".utf8))
        let target = try file("old.css", Array("old and longer".utf8))
        #expect(throws: POSIXError.self) { try FileCopy.copy(source, to: target, exclusive: true) }
        #expect(try bytes(target) == Array("old and longer".utf8))
        _ = try FileCopy.copy(source, to: target, exclusive: false)
        #expect(try bytes(target) == Array("body{}".utf8))
    }

    @Test func failsForAMissingSource() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        #expect(throws: POSIXError.self) { try FileCopy.copy(folder.appendingPathComponent("gone.png").path, to: folder.appendingPathComponent("copy.png").path, exclusive: true) }
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("copy.png").path))
    }
    /// An output whose copy of a photo is as the last build wrote it (the manifest's size
    /// and time), with another hash: the writer copies the new bytes into a temporary and
    /// renames it over the old copy.
    private func outputWithPhoto() throws -> (output: URL, previous: PathTable<OutputManifest.Entry>) {
        let output = folder.appendingPathComponent("Output")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        let photo = output.appendingPathComponent("photo.jpg").path
        try Data("old".utf8).write(to: URL(fileURLWithPath: photo))
        var info = stat()
        #expect(stat(photo, &info) == 0)
        return (output, PathTable(["photo.jpg": OutputManifest.Entry(size: 3, modified: OutputManifest.time(of: info), hash: 42)]))
    }

    @Test func replacesAChangedCopyWithTheNewBytes() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let (output, previous) = try outputWithPhoto()
        let source = try file("new.jpg", Array("new bytes".utf8))
        let result = try OutputWriter.write([OutputFile(path: "photo.jpg", contents: .copy(URL(fileURLWithPath: source), hash: 7))], to: output,
                                            previous: previous, removingStale: false)
        #expect(result.written == 1)
        #expect(result.manifest["photo.jpg"]?.hash == 7)
        #expect(result.manifest["photo.jpg"]?.size == 9)
        #expect(try bytes(output.appendingPathComponent("photo.jpg").path) == Array("new bytes".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: output.path) == ["photo.jpg"])
    }

    /// A copy that fails half-way (here a source that is a folder, which opens but does not
    /// read) leaves the old copy as it was and no temporary beside it.
    @Test func aFailedReplacementLeavesTheOldCopyAndNoTemporary() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let (output, previous) = try outputWithPhoto()
        let source = folder.appendingPathComponent("not-a-file")
        try FileManager.default.createDirectory(at: source, withIntermediateDirectories: true)
        #expect(throws: (any Error).self) {
            try OutputWriter.write([OutputFile(path: "photo.jpg", contents: .copy(source, hash: 7))], to: output, previous: previous, removingStale: false)
        }
        #expect(try bytes(output.appendingPathComponent("photo.jpg").path) == Array("old".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: output.path) == ["photo.jpg"])
    }
}
