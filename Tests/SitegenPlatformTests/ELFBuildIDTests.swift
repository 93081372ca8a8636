import Foundation
import SitegenPlatform
import SitegenTestSupport
import Testing

@Suite("The executable's build ID")
struct ELFBuildIDTests {
    /// A note: its name "GNU", type and description, padded to `alignment`.
    private func note(type: UInt32, description: [UInt8], alignment: Int = 4) -> [UInt8] {
        func padded(_ bytes: [UInt8]) -> [UInt8] { bytes + Array(repeating: 0, count: (alignment - bytes.count % alignment) % alignment) }
        return bytes(UInt32(4)) + bytes(UInt32(description.count)) + bytes(type) + padded(Array("GNU\0".utf8)) + padded(description)
    }

    private func bytes<Integer: FixedWidthInteger>(_ value: Integer) -> [UInt8] {
        (0..<(Integer.bitWidth / 8)).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
    }

    /// A 64-bit little-endian ELF file: its header, a loadable segment and a note segment.
    private func elf(notes: [UInt8], alignment: UInt64 = 4) -> [UInt8] {
        var header = [0x7F, 0x45, 0x4C, 0x46, 2, 1, 1] + [UInt8](repeating: 0, count: 57)
        header.replaceSubrange(32..<40, with: bytes(UInt64(64)))
        header.replaceSubrange(54..<56, with: bytes(UInt16(56)))
        header.replaceSubrange(56..<58, with: bytes(UInt16(2)))
        let load = bytes(UInt32(1)) + [UInt8](repeating: 0, count: 52)
        var noteHeader = bytes(UInt32(4)) + [UInt8](repeating: 0, count: 52)
        noteHeader.replaceSubrange(8..<16, with: bytes(UInt64(64 + 112)))
        noteHeader.replaceSubrange(32..<40, with: bytes(UInt64(notes.count)))
        noteHeader.replaceSubrange(48..<56, with: bytes(alignment))
        return header + load + noteHeader + notes
    }

    private func buildID(of contents: [UInt8]) throws -> String? {
        let folder = TemporaryFolder()
        let file = folder.url.appendingPathComponent("sitegen")
        try Data(contents).write(to: file)
        return ELFBuildID.of(file: file.path)
    }

    @Test func readsTheBuildIDFromTheNotes() throws {
        let abiTag = note(type: 1, description: [0, 0, 0, 0, 3, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0])
        #expect(try buildID(of: elf(notes: abiTag + note(type: 3, description: [0xDE, 0xAD, 0xBE, 0xEF, 0x01]))) == "deadbeef01")
        let aligned = note(type: 5, description: [1, 2, 3], alignment: 8) + note(type: 3, description: [0x0A, 0xB0], alignment: 8)
        #expect(try buildID(of: elf(notes: aligned, alignment: 8)) == "0ab0")
    }

    private static let readelf = ["/usr/bin/readelf", "/bin/readelf"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// The running test binary's, as binutils' `readelf` reads it.
    @Test(.enabled(if: readelf != nil, "needs binutils' readelf"))
    func readsTheLinkersBuildIDOfThisExecutable() throws {
        let readelf = try #require(Self.readelf)
        let process = Process()
        let pipe = Pipe()
        process.executableURL = URL(fileURLWithPath: readelf)
        process.arguments = ["-n", "/proc/self/exe".resolvedExecutable]
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let line = output.split(separator: "\n").first { $0.contains("Build ID:") }
        #expect(ELFBuildID.of(file: "/proc/self/exe") == line?.split(separator: " ").last.map(String.init))
    }

    @Test func hasNoneForOtherFiles() throws {
        #expect(try buildID(of: elf(notes: note(type: 1, description: [1, 2, 3, 4]))) == nil)
        #expect(try buildID(of: Array("#!/bin/sh\necho sitegen\n".utf8)) == nil)
        #expect(try buildID(of: Array(elf(notes: note(type: 3, description: [1, 2, 3, 4])).prefix(40))) == nil)
        // A note that claims more bytes than its segment has.
        var cut = note(type: 3, description: [1, 2, 3, 4])
        cut.replaceSubrange(4..<8, with: bytes(UInt32(4096)))
        #expect(try buildID(of: elf(notes: cut)) == nil)
        #expect(ELFBuildID.of(file: "/nonexistent/sitegen") == nil)
    }
}

private extension String {
    /// The file a symbolic link such as /proc/self/exe names.
    var resolvedExecutable: String { (try? FileManager.default.destinationOfSymbolicLink(atPath: self)) ?? self }
}
