/// The version of segued and seguectl, in one place: both binaries' `--version` and `daemon.info`'s `version` read
/// it, so a client can tell at once whether it talks to the daemon it was built with.
public enum SegueVersion {
    /// Semantic version of the daemon, the client and the protocol implementation they share.
    public static let string = "0.1.0"
    /// The protocol's API level (`daemon.info`'s `api`): raised when a change would break a client.
    public static let api = 1
}
