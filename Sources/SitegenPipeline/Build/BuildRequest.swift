import Foundation
import SitegenContent
import SitegenFiles

/// A build's options, checked before anything is read: the folders, the base URL and the
/// moment asked for.
public struct BuildRequest: Sendable {
    public var options: BuildOptions
    public var sourceURL: URL
    public var outputURL: URL
    /// The output folder as the report names it.
    public var outputPath: String
    /// `--base-url`, in place of site.yaml's.
    public var baseURL: WebURL?
    /// `--today`, unsettled.
    public var moment: BuildMoment?

    /// What is wrong with the options, as `sitegen` says it.
    public struct Refusal: Error {
        public var message: String
    }

    public init(_ options: BuildOptions) throws(Refusal) {
        self.options = options
        sourceURL = URL(fileURLWithPath: options.source).standardizedFileURL
        outputURL = URL(fileURLWithPath: options.output ?? sourceURL.appendingPathComponent("Output").path).standardizedFileURL
        outputPath = options.output ?? (options.source == "." ? "Output/" : sourceURL.appendingPathComponent("Output").path + "/")
        if let problem = OutputWriter.refusal(output: outputURL, source: sourceURL) { throw Refusal(message: problem) }
        if let text = options.baseURL {
            guard let url = WebURL(text), Site.isPublishingAddress(url) else {
                throw Refusal(message: "--base-url must be \(Site.publishingAddress), found '\(text)'")
            }
            baseURL = url
        }
        if let text = options.today {
            guard let moment = BuildMoment(parsing: text) else {
                throw Refusal(message: "--today must be a date like 2026-03-10 or a date and time like 2026-03-10T13:30, found '\(text)'")
            }
            self.moment = moment
        }
        guard FileManager.default.fileExists(atPath: sourceURL.appendingPathComponent("Content/site.yaml").path) else {
            throw Refusal(message: "no site at \(options.source): expected Content/site.yaml (run 'sitegen init' to start one)")
        }
    }
}

/// The site's settings as the parse stage read them, and what the build makes of them:
/// the moment its pages show and the Leaflet of its map.
public struct BuildSettings: Sendable {
    public var site: Site
    public var teachers: [Teacher]
    /// Settled (`BuildMoment.settled`).
    public var moment: BuildMoment
    /// The instant, in seconds since 1970, the build reads as now for articles' dates: an
    /// article dated after it is scheduled (`BuildMoment.schedulingInstant`).
    public var clock: Int
    /// The theme's words in the site's language.
    public var strings: ThemeStrings
    /// The Leaflet `/map/` uses, when there is one.
    public var leaflet: LeafletFiles?
    /// What tells this build's options and tools from another's: a build made with others
    /// is not one to take anything from.
    public var signature: String
}
