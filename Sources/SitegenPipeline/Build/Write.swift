import Foundation
import SitegenContent
import SitegenFiles
import SitegenLocking
import SitegenSupport

/// A build's work up to the write stage: its report, and what it made.
public struct Made {
    public var report: BuildReport
    public var request: BuildRequest?
    public var tree: SourceTree?
    public var settings: BuildSettings?
    public var formats: Formats?
    public var index: SiteIndex?
    public var theme: Theme?
    public var assets: PublishedAssets?
    /// Every file of the output, or with `isScoped` only those of the pages a scope renders.
    public var files: [OutputFile]?
    public var isScoped = false
    /// Each shown photo's colour, by its path in the site (`Photos.Output.colours`).
    public var photoColours: [String: String] = [:]
    /// Where a first build's pages wait to be moved into the output.
    public var staging: OutputStaging?
    /// What the pages were made with (`Render.Output.workings`).
    public var workings: (any Sendable)?
}

/// The **write** stage: the files put in place, each only when its bytes changed; a scoped
/// build leaves every other file as it is, a whole one removes what the site no longer has.
public enum Write {
    public static func run(_ made: inout Made, reuse: (any BuildReuse)?, progress: @escaping @Sendable (String) -> Void) -> BuildReport {
        var report = made.report
        let request = made.request!
        let kept = request.options.keptUntilExit
        let result: OutputWriter.Result
        do {
            let last = reuse?.lastOutput
            result = try OutputWriter.write(made.files!, to: request.outputURL, previous: last?.files ?? PathTable(), previousFolders: last?.folders ?? PathTable(),
                                            removingStale: !made.isScoped, outputIsAsLeft: last?.isAsLeft ?? false, staging: made.staging)
        } catch {
            report.commandError = "cannot write \(request.outputURL.path): \(error)"
            reuse?.written(nil)
            return report
        }
        report.byteCount = result.bytesWritten
        report.writtenCount = result.written
        if made.isScoped {
            report.unchangedCount = report.fileCount - result.written
        } else {
            report.fileCount = made.files!.count
            report.unchangedCount = result.unchanged
            report.removedCount = result.removed
        }
        // The pages are no longer needed: memory goes to the reuse instead. A command leaves
        // them to its exit: freed here, they would be the only work of the end of a first
        // build.
        kept?.keep((made.files!, made.workings))
        made.files = nil
        made.workings = nil
        reuse?.written(WrittenBuild(report: report, tree: made.tree!, settings: made.settings!, index: made.index!, theme: made.theme!, assets: made.assets!,
                                    formats: made.formats!.known, result: result, isScoped: made.isScoped, progress: progress))
        return report
    }
}

/// What a process that ends right after its build keeps until its exit: models, pages and
/// caches are left for the kernel to take back all at once, instead of being freed one by
/// one on one core.
public final class KeptUntilExit: Sendable {
    private let kept = Locked<[any Sendable]>([])

    public init() {}

    public func keep(_ value: any Sendable) {
        kept.withLock { $0.append(value) }
    }

    /// What is kept, kept until the process exits: never released.
    public func leaveToExit() {
        _ = Unmanaged.passRetained(self)
    }
}

extension BuildReport {
    public init(commandError: String) {
        self.init()
        self.commandError = commandError
    }

    public init(request: BuildRequest, settings: BuildSettings) {
        self.init()
        outputPath = request.outputPath
        basePath = settings.site.basePath
        if request.moment == nil { momentChanges = settings.moment.nextChange(releaseTime: settings.site.homework.releaseTime, in: settings.site.timeZone) }
    }

    /// The report of the last build, which stands for this one: its problems and counts,
    /// with this one's folders and moment.
    public func taking(_ last: BuildReport) -> BuildReport {
        var report = self
        report.diagnostics = last.diagnostics
        report.pageCount = last.pageCount
        report.fileCount = last.fileCount
        report.unchangedCount = last.fileCount
        report.extent = .unchanged
        report.nextScheduled = last.nextScheduled
        return report
    }
}
