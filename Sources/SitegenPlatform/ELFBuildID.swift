import Foundation

/// The GNU build ID of an ELF executable: a hash of the file that the linker writes into a
/// note (`.note.gnu.build-id`). Two builds of the same sources with the same toolchain have
/// the same one, so a sitegen built again on each CI run can trust the build cache of the
/// run before; a sitegen built from other sources has another.
public enum ELFBuildID {
    /// The build ID of the 64-bit little-endian ELF file at `path` (x86-64 and arm64
    /// Linux), in hex; nil for another kind of file, or one without the note.
    public static func of(file path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        func read(_ count: Int, at offset: Int) -> [UInt8]? {
            // Program headers and notes take a few hundred bytes; more is no executable's.
            guard count > 0, count <= 1 << 20, offset >= 0 else { return nil }
            var bytes = [UInt8](repeating: 0, count: count)
            let got = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, count, off_t(offset)) }
            return got == count ? bytes : nil
        }
        guard let header = read(64, at: 0), header[0..<4] == [0x7F, 0x45, 0x4C, 0x46], header[4] == 2, header[5] == 1 else { return nil }
        let tableOffset = Int(clamping: header.littleEndian(UInt64.self, at: 32))
        let entrySize = Int(header.littleEndian(UInt16.self, at: 54))
        let entries = Int(header.littleEndian(UInt16.self, at: 56))
        guard entrySize >= 56, let table = read(entrySize * entries, at: tableOffset) else { return nil }
        for entry in 0..<entries {
            let base = entry * entrySize
            guard table.littleEndian(UInt32.self, at: base) == 4 else { continue }  // PT_NOTE
            let offset = Int(clamping: table.littleEndian(UInt64.self, at: base + 8))
            let size = Int(clamping: table.littleEndian(UInt64.self, at: base + 32))
            let alignment = table.littleEndian(UInt64.self, at: base + 48) == 8 ? 8 : 4
            if let notes = read(size, at: offset), let id = buildID(inNotes: notes, alignment: alignment) { return id }
        }
        return nil
    }

    /// The build ID among the notes of one note segment, whose entries are padded to
    /// `alignment` (4, or 8 for segments aligned so).
    static func buildID(inNotes notes: [UInt8], alignment: Int) -> String? {
        func padded(_ count: Int) -> Int { (count + alignment - 1) & ~(alignment - 1) }
        var at = 0
        while notes.count - at >= 12 {
            let nameSize = Int(notes.littleEndian(UInt32.self, at: at))
            let descriptionSize = Int(notes.littleEndian(UInt32.self, at: at + 4))
            let type = notes.littleEndian(UInt32.self, at: at + 8)
            let name = at + 12
            let description = name + padded(nameSize)
            guard description + descriptionSize <= notes.count else { return nil }
            // NT_GNU_BUILD_ID, owned by "GNU".
            if type == 3, nameSize == 4, notes[name..<(name + 4)] == [0x47, 0x4E, 0x55, 0], descriptionSize > 0 {
                return notes[description..<(description + descriptionSize)].map { byte in
                    String(UnicodeScalar(hexDigits[Int(byte >> 4)])) + String(UnicodeScalar(hexDigits[Int(byte & 15)]))
                }.joined()
            }
            at = description + padded(descriptionSize)
        }
        return nil
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}

private extension Array where Element == UInt8 {
    /// The integer whose little-endian bytes start at `offset` (which must leave room for it).
    func littleEndian<Integer: FixedWidthInteger>(_: Integer.Type, at offset: Int) -> Integer {
        var value: Integer = 0
        for index in (0..<(Integer.bitWidth / 8)).reversed() { value = value << 8 | Integer(self[offset + index]) }
        return value
    }
}

/// The running executable.
public enum Executable {
    /// Its path, from `argv[0]` and `PATH` (not /proc/self/exe, which names valgrind when
    /// sitegen runs under it), or the kernel's name for it when neither tells.
    public static var path: String? {
        if let name = CommandLine.arguments.first, !name.isEmpty {
            if name.contains("/") { return name }
            for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
                let candidate = "\(folder)/\(name)"
                if access(candidate, X_OK) == 0 { return candidate }
            }
        }
        #if os(Linux)
        return "/proc/self/exe"
        #else
        return nil
        #endif
    }

    /// What tells the executable at `path` from one built from other sources: its ELF
    /// build ID, or else its size and modification time; nil when it cannot be read.
    public static func identity(of path: String) -> String? {
        if let id = ELFBuildID.of(file: path) { return "build-id \(id)" }
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        let modified = info.modificationTime
        return "\(info.st_size)|\(modified.tv_sec).\(modified.tv_nsec)"
    }
}
