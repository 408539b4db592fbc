/// How the studio treats one daemon method: relayed (and which of its parameters name scenes, each of which must be
/// one of the page's own), answered by the studio itself, or refused. `RelayPolicy.rules` holds one for every
/// method the daemon has; a method it does not list is refused, and a test fails when the daemon gains a method
/// the table does not decide on.
public struct RelayRule: Sendable, Equatable {
    public enum Route: Sendable, Equatable {
        /// Passed to the daemon as the page's bytes.
        case relayed
        /// Answered by the studio without asking the daemon (`daemon.info`: what the page may know of it).
        case answeredByStudio
        /// Refused with -32601, and why.
        case refused(String)
    }

    public let route: Route
    /// Every field of `params` that names a scene, as a path of member names (`["start", "params", "scene"]`). A
    /// field that is present must name a scene the page owns.
    public let sceneFields: [[String]]
    /// The first scene field must be given (the connection's current scene is not taken as a default).
    public let needsScene: Bool
    /// The field of `params` naming a scene the request creates (`scene.create`'s `id`): claimed by the page, and
    /// owned once the daemon's answer confirms it.
    public let claim: [String]?
    /// The request ends the page's ownership of the scene it names (`scene.destroy`).
    public let releases: Bool

    /// Relayed, with these scene-naming fields (`params.scene` unless told otherwise).
    static func relay(_ sceneFields: [[String]] = [["scene"]], needsScene: Bool = false, releases: Bool = false)
        -> RelayRule
    {
        RelayRule(route: .relayed, sceneFields: sceneFields, needsScene: needsScene, claim: nil, releases: releases)
    }

    /// Relayed, and it names no scene.
    static let sceneless = RelayRule(route: .relayed, sceneFields: [], needsScene: false, claim: nil, releases: false)

    /// Relayed, creating the scene named at `field`.
    static func creates(_ field: [String]) -> RelayRule {
        RelayRule(route: .relayed, sceneFields: [], needsScene: false, claim: field, releases: false)
    }

    static func refuse(_ why: String) -> RelayRule {
        RelayRule(route: .refused(why), sceneFields: [], needsScene: false, claim: nil, releases: false)
    }

    static let studio = RelayRule(route: .answeredByStudio, sceneFields: [], needsScene: false, claim: nil,
                                  releases: false)
}
