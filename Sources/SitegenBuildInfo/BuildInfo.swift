/// What this sitegen was built from, stamped by the BuildInfo plugin.
public enum BuildInfo {
    /// The semantic version, from the repository's VERSION file.
    public static let version = BuildStamp.version

    /// The commit built, in full; nil when the build could not tell (no git, no
    /// SITEGEN_COMMIT).
    public static let commit: String? = BuildStamp.commit.isEmpty ? nil : BuildStamp.commit

    /// True when tracked files differed from the commit: the binary is not that commit's.
    public static let modified = BuildStamp.modified

    /// The GitHub repository built from, `owner/name`: the release workflow's, or the one a
    /// checkout was cloned from; nil when neither is known.
    public static let repository: String? = BuildStamp.repository.isEmpty ? nil : BuildStamp.repository

    /// `0.1.0 (commit 0123…abcd)`, with `, modified` for a binary that is not its commit's.
    public static var summary: String {
        guard let commit else { return "\(version) (commit unknown)" }
        return "\(version) (commit \(commit)\(modified ? ", modified" : ""))"
    }
}
