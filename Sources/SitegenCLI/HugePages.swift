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
enum HugePages {
    static let tunable = "glibc.malloc.hugetlb"

    /// The value `GLIBC_TUNABLES` gets for the restart, from its value now and the kernel's
    /// setting (the text of /sys/kernel/mm/transparent_hugepage/enabled); nil when the
    /// process should go on as it is.
    static func tunables(current: String?, kernelSetting: String?) -> String? {
        guard let kernelSetting, kernelSetting.contains("[madvise]") else { return nil }
        guard let current, !current.isEmpty else { return tunable + "=1" }
        let named = current.split(separator: ":").contains { $0.split(separator: "=").first.map(String.init) == tunable }
        return named ? nil : current + ":" + tunable + "=1"
    }

    /// Starts this process again with the tunable set, when `tunables` says so; returns
    /// only when it does not (or the restart fails, and the build goes on without).
    static func restartAskingForThem() {
        let current = getenv("GLIBC_TUNABLES").map { String(cString: $0) }
        guard getenv("VALGRIND_LAUNCHER") == nil, let value = tunables(current: current, kernelSetting: kernelSetting()),
              setenv("GLIBC_TUNABLES", value, 1) == 0 else { return }
        execv("/proc/self/exe", CommandLine.unsafeArgv)
        if let current { setenv("GLIBC_TUNABLES", current, 1) } else { unsetenv("GLIBC_TUNABLES") }
    }

    private static func kernelSetting() -> String? {
        try? String(contentsOfFile: "/sys/kernel/mm/transparent_hugepage/enabled", encoding: .utf8)
    }
}
#endif
