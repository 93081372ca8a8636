import Foundation
@testable import SitegenFiles
import SitegenPlatform
import Testing

/// An output the build found as the last build left it (every file as written, every
/// folder with its time) is not looked at again: what is stale comes from the last build's
/// list, and only the folders along the files written or removed get new times.
@Suite("Writing an output found as left")
struct OutputWriterTests {
    private let output = FileManager.default.temporaryDirectory.appendingPathComponent("sitegen-writer-\(UUID().uuidString)")

    private func time(of path: String) -> Int64? {
        var info = stat()
        return stat(output.appendingPathComponent(path).path, &info) == 0 ? OutputManifest.time(of: info) : nil
    }

    /// `a/index.html`, `a/photo.jpg` and `b/index.html` as a last build wrote them, and
    /// that build's manifest of them; `b/other.txt` is there too, but in no manifest.
    private func lastBuild() throws -> PathTable<OutputManifest.Entry> {
        var manifest: [String: OutputManifest.Entry] = [:]
        for path in ["a/index.html", "a/photo.jpg", "b/index.html", "b/other.txt"] {
            let url = output.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(path.utf8).write(to: url)
            if path != "b/other.txt" { manifest[path] = OutputManifest.Entry(size: path.utf8.count, modified: time(of: path)!, hash: 1) }
        }
        return PathTable(manifest)
    }

    @Test func removesTheFilesTheSiteNoLongerHasByTheLastBuildsList() throws {
        defer { try? FileManager.default.removeItem(at: output) }
        let previous = try lastBuild()
        let kept = OutputFile(path: "b/index.html", contents: .unchanged(previous["b/index.html"]!))
        let result = try OutputWriter.write([kept], to: output, previous: previous, outputIsAsLeft: true)
        #expect(result.removed == 2)
        #expect(Set(result.changedPaths ?? []) == ["a/index.html", "a/photo.jpg"])
        #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("a").path))
        // Not searched for: the caller said the output holds nothing else.
        #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent("b/other.txt").path))
        #expect(try Data(contentsOf: output.appendingPathComponent("b/index.html")) == Data("b/index.html".utf8))
    }

    @Test func searchesTheOutputForStaleFilesWhenItWasNotFoundAsLeft() throws {
        defer { try? FileManager.default.removeItem(at: output) }
        let previous = try lastBuild()
        let kept = OutputFile(path: "b/index.html", contents: .unchanged(previous["b/index.html"]!))
        let result = try OutputWriter.write([kept], to: output, previous: previous)
        #expect(result.removed == 3)
        #expect(result.changedPaths == nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: output.path) == ["b"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: output.appendingPathComponent("b").path) == ["index.html"])
    }

    @Test func looksAgainOnlyAtTheFoldersAlongTheChangedPaths() throws {
        defer { try? FileManager.default.removeItem(at: output) }
        _ = try lastBuild()
        try FileManager.default.createDirectory(at: output.appendingPathComponent("b/deeper"), withIntermediateDirectories: true)
        let last = PathTable<Int64>(["": 1, "a": 2, "b": 3, "b/deeper": 4, "gone": 5, "gone/deeper": 6])
        let updated = OutputWriter.folderTimes(last, updatedAlong: ["b/deeper/index.html", "gone/deeper/x.html"], in: output.path)
        #expect(updated.keys == ["", "a", "b", "b/deeper"])
        #expect(updated[""] == time(of: ""))
        #expect(updated["b"] == time(of: "b"))
        #expect(updated["b/deeper"] == time(of: "b/deeper"))
        // Not along a changed path: as the last build left it.
        #expect(updated["a"] == 2)
    }
}

@Suite("Output paths")
struct OutputPathTests {
    @Test func keepsOutputPathsInsideTheOutputFolder() {
        for good in ["articles/x/index.html", "tags/點心/index.html", "a/.../b", "a/.b/..c", "x.sitegen-y"] {
            #expect(OutputWriter.safeRelativePath(good) == good, "\(good)")
        }
        for bad in ["../x", "a/../../x", "/etc/passwd", "a//b", "a/./b", "a\\b", "", "x\0y", "a/", ".", "..", "a/..", ".sitegen-1-x", "a/.sitegen-tmp/b"] {
            #expect(OutputWriter.safeRelativePath(bad) == nil, "\(bad)")
        }
    }
}
