import Dispatch
import Foundation
import SitegenContent
import SitegenMustache
import SitegenSupport
import SitegenYAML
import Synchronization

/// What `sitegen build` was asked to do.
public struct BuildOptions: Sendable {
    public var source: String
    /// Defaults to `<source>/Output`.
    public var output: String?
    /// Overrides `base_url` of site.yaml.
    public var baseURL: String?
    /// `YYYY-MM-DD` or `YYYY-MM-DDTHH:MM`; defaults to the current time in the site's zone.
    public var today: String?
    /// The clock read when `today` is not given (a test's own, to build at any moment).
    public var clock: @Sendable () -> Date = { Date() }
    public var drafts: Bool
    /// Include articles dated after the build's moment (scheduled), marked as such.
    public var future = false
    public var strict: Bool
    /// The Leaflet of `/map/` when site.yaml names no `map.leaflet`.
    public var leaflet = LeafletFiles.embedded
    /// Whether to use the build cache, and where it is (default: ~/.cache/sitegen).
    public var useCache = false
    public var cacheFolder: String?
    /// Which sitegen this is: a cache made by another one is not trusted.
    public var toolIdentity = ""
    /// Whether a build stops at errors of site.yaml, teachers.yaml or the theme, before the
    /// content is read: `sitegen serve` shows them at once, and the content's problems once
    /// they are fixed. A command goes on, to report every file's problems with them.
    public var stopsAtBrokenSettings = false
    /// Set when the process ends right after the build: its models, pages and cache are
    /// then kept here, left for the kernel to take back at exit, all at once, instead of
    /// being freed one by one on one core.
    public var keptUntilExit: KeptUntilExit?

    public init(source: String = ".", output: String? = nil, baseURL: String? = nil, today: String? = nil, drafts: Bool = false, strict: Bool = false) {
        self.source = source
        self.output = output
        self.baseURL = baseURL
        self.today = today
        self.drafts = drafts
        self.strict = strict
    }
}

/// What a build did, or why it did nothing.
public struct BuildReport: Sendable {
    public init() {}

    /// Every problem of the site, sorted by path and line.
    public var diagnostics: [Diagnostic] = []
    /// A problem with the command itself (a bad option, an output folder sitegen refuses).
    public var commandError: String?
    /// The HTML pages of the site, as `sitegen check` counts them.
    public var pageCount = 0
    public var fileCount = 0
    /// Files this build rendered (pages, feeds, calendars, the sitemap); the others were the
    /// last build's, shown unchanged by the cache.
    public var renderedCount = 0
    /// Content files this build parsed; the others' models were the cache's.
    public var parsedCount = 0
    /// Photos this build made into their sizes; the others' were the cache's.
    public var photosMade = 0
    public var byteCount = 0
    /// Files the build wrote, found unchanged, and removed as no longer part of the site.
    public var writtenCount = 0
    public var unchangedCount = 0
    public var removedCount = 0
    public var outputPath = ""
    /// The path the site is served under: "/" or "/food/".
    public var basePath = "/"
    /// How much of the site the build went through.
    public var extent = Extent.whole
    public enum Extent: Sendable {
        /// Nothing changed since the last build: its report stands.
        case unchanged
        /// Only the pages that show a few files edited in place (`BuildReuse.scope`).
        case edits
        /// Every model and page, each rendered or found as the last build left it.
        case whole
    }
    /// When what the pages show of the clock next changes (the homework's release time or
    /// midnight, in the site's time zone), for a build at the clock's moment (no `--today`):
    /// a dev server left running rebuilds then. Nil when the site could not be read.
    public var momentChanges: Date?

    /// The earliest date of an article scheduled at the build's moment (seconds since
    /// 1970), when there is one.
    public var nextScheduled: Int? {
        didSet {
            // Without `--today`, a scheduled article's time changes what the pages show too.
            if let next = nextScheduled, let changes = momentChanges {
                momentChanges = min(changes, Date(timeIntervalSince1970: TimeInterval(next)))
            }
        }
    }

    public var succeeded: Bool {
        commandError == nil && !diagnostics.contains { $0.severity == .error }
    }
}
