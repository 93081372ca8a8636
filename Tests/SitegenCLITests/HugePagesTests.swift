#if canImport(Glibc)
@testable import SitegenCLI
import Testing

@Suite("huge pages for a build's heap")
struct HugePagesTests {
    static let advised = "always [madvise] never\n"

    @Test func asksForThemWhereTheKernelGivesThemOnRequest() {
        #expect(HugePages.tunables(current: nil, kernelSetting: Self.advised) == "glibc.malloc.hugetlb=1")
        #expect(HugePages.tunables(current: "", kernelSetting: Self.advised) == "glibc.malloc.hugetlb=1")
    }

    @Test func keepsTheTunablesAlreadySet() {
        #expect(HugePages.tunables(current: "glibc.malloc.arena_max=2", kernelSetting: Self.advised)
            == "glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1")
    }

    @Test func leavesAChoiceOfTheUsersAndItsOwnRestartAlone() {
        #expect(HugePages.tunables(current: "glibc.malloc.hugetlb=0", kernelSetting: Self.advised) == nil)
        #expect(HugePages.tunables(current: "glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1", kernelSetting: Self.advised) == nil)
        #expect(HugePages.tunables(current: "glibc.malloc.hugetlb", kernelSetting: Self.advised) == nil)
        #expect(HugePages.tunables(current: "glibc.malloc.hugetlbx=1", kernelSetting: Self.advised) == "glibc.malloc.hugetlbx=1:glibc.malloc.hugetlb=1")
    }

    @Test func startsNoProcessWhereAskingChangesNothing() {
        #expect(HugePages.tunables(current: nil, kernelSetting: "[always] madvise never\n") == nil)
        #expect(HugePages.tunables(current: nil, kernelSetting: "always madvise [never]\n") == nil)
        #expect(HugePages.tunables(current: nil, kernelSetting: nil) == nil)
    }
}
#endif
