#if canImport(Glibc)
import Foundation
import Glibc

/// Huge pages for the heap of `sitegen build`. A build of 10,000 articles first writes to
/// some 42,500 pages of memory, and the kernel of a virtual machine takes microseconds over
/// each first write: 6 % of the build's time. glibc's malloc asks for transparent huge
/// pages (2 MB, one fault each) when its tunable `glibc.malloc.hugetlb=1` is set, and a
/// tunable is read only from the environment when a process starts, so the build starts
/// itself again once with it. Only where the kernel gives huge pages to those who ask
/// (`madvise`; with `always` it gives them anyway, with `never` not at all), never when
/// the variable already names the tunable (a choice of the user's, or the restart itself),
/// and never under valgrind, which would run the restarted process outside itself.
/// Nor for a small site: the restart costs some 4 ms, which is 5 % of a build of 100
/// articles and 500 assignments, and its heap is too small for huge pages to win it back
/// (40 alternating builds: 84.8 ms with the restart, 81.1 ms without huge pages).
enum HugePages {
    static let tunable = "glibc.malloc.hugetlb"
    /// Sites with fewer files and folders than this in `Content/` build without the restart.
    static let largeSite = 2_000

    /// The value `GLIBC_TUNABLES` gets for the restart, from its value now and the kernel's
    /// setting (the text of /sys/kernel/mm/transparent_hugepage/enabled); nil when the
    /// process should go on as it is.
    static func tunables(current: String?, kernelSetting: String?) -> String? {
        guard let kernelSetting, kernelSetting.split(whereSeparator: \.isWhitespace).contains("[madvise]") else { return nil }
        guard let current, !current.isEmpty else { return tunable + "=1" }
        let named = current.split(separator: ":").contains { $0.split(separator: "=").first.map(String.init) == tunable }
        return named ? nil : current + ":" + tunable + "=1"
    }

    /// Starts this process again with the tunable set, when `tunables` says so and the site
    /// at `source` is not small; returns only when it does not (or the restart fails, and
    /// the build goes on without).
    static func restartAskingForThem(forSiteAt source: String) {
        let current = getenv("GLIBC_TUNABLES").map { String(cString: $0) }
        guard getenv("VALGRIND_LAUNCHER") == nil, let value = tunables(current: current, kernelSetting: kernelSetting()),
              holds(atLeast: largeSite, entriesIn: source + "/Content"),
              setenv("GLIBC_TUNABLES", value, 1) == 0 else { return }
        execv("/proc/self/exe", CommandLine.unsafeArgv)
        if let current { setenv("GLIBC_TUNABLES", current, 1) } else { unsetenv("GLIBC_TUNABLES") }
    }

    /// Whether `folder` and the folders in it hold `limit` entries or more, hidden ones aside
    /// (as the build's walk leaves them), counted only until there are that many: a few
    /// thousand names read of a site of any size, which the walk then finds in the kernel's
    /// memory. A folder that cannot be read counts as empty.
    static func holds(atLeast limit: Int, entriesIn folder: String) -> Bool {
        var count = 0
        var folders = [folder]
        while let next = folders.popLast() {
            guard let stream = opendir(next) else { continue }
            defer { closedir(stream) }
            while let entry = readdir(stream) {
                // ".", ".." and hidden entries.
                if UInt8(bitPattern: entry.pointee.d_name.0) == UInt8(ascii: ".") { continue }
                count += 1
                if count >= limit { return true }
                let type = entry.pointee.d_type
                guard type == UInt8(DT_DIR) || type == UInt8(DT_UNKNOWN) else { continue }
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                let path = next + "/" + name
                var info = stat()
                if type == UInt8(DT_DIR) || (lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR) {
                    folders.append(path)
                }
            }
        }
        return false
    }

    private static func kernelSetting() -> String? {
        try? String(contentsOfFile: "/sys/kernel/mm/transparent_hugepage/enabled", encoding: .utf8)
    }
}
#endif
