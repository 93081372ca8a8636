import Foundation
import SitegenPlatform
import Testing

@Suite("Running process")
struct RunningProcessTests {
    @Test func tellsThisProcessFromOneThatEnded() throws {
        #expect(RunningProcess.current.isRunning)
        #expect(RunningProcess(description: RunningProcess.current.description) == RunningProcess.current)
        // The same number with another start time is a later process that got the number.
        #expect(!RunningProcess(id: getpid(), started: RunningProcess.current.started + 1).isRunning)
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/bin/true")
        try child.run()
        child.waitUntilExit()
        #expect(!RunningProcess(id: child.processIdentifier, started: RunningProcess.current.started).isRunning)
        #expect(RunningProcess(description: "pid x started 3") == nil)
    }
}
