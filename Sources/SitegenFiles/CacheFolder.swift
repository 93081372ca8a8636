import Foundation

/// Where sitegen keeps what it remembers between runs when it is not told: the build
/// cache, the photos made, what `sitegen import` last heard from each feed.
public enum CacheFolder {
    /// `$XDG_CACHE_HOME/sitegen`, or `~/.cache/sitegen`.
    public static var standard: String {
        let environment = ProcessInfo.processInfo.environment
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") { return cache + "/sitegen" }
        return (environment["HOME"] ?? NSTemporaryDirectory()) + "/.cache/sitegen"
    }
}
