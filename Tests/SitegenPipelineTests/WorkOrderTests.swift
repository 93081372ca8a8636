import SitegenContent
import SitegenSupport
@testable import SitegenPipeline
import Testing

@Suite("Work order")
struct WorkOrderTests {
    @Test func resultsKeepTheItemsOrderWhateverTheOrderOfWork() {
        let items = Array(0..<1_000)
        var order = Array(items.indices)
        var generator = SystemRandomNumberGenerator()
        order.shuffle(using: &generator)
        #expect(parallelMap(items, workingIn: order) { $0 * 2 } == items.map { $0 * 2 })
        #expect(parallelMap([Int](), workingIn: []) { $0 }.isEmpty)
    }

    @Test func runsOfItemsKeepTheirOrder() {
        for count in [0, 1, 255, 256, 257, 1_000, 1_023] {
            let items = Array(0..<count)
            #expect(parallelMap(items, inRunsOf: 256) { $0 * 3 } == items.map { $0 * 3 }, "\(count)")
        }
    }

    @Test func pagesMadeFromTheWholeSiteComeFirstAndTheRestInPlanOrder() {
        let plan: [PlannedPage] = [.notFound, .sitemap, .robots, .map, .homework, .siteFeed, .teachers]
        #expect(PlannedPage.workOrder(plan) == [1, 3, 5, 0, 2, 4, 6])
        #expect(PlannedPage.workOrder([]).isEmpty)
    }
}
