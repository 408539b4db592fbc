/// An answer owed and not given yet: a `transition.wait` (answered when its transition ends, or when its wall-clock
/// timeout passes), or a `plugins.check` running case by case (an empty scene and transition: no scene has an empty
/// id, so no transition's end answers it). A batch and a half-closed connection wait for either alike, and a
/// connection that goes away drops it, which stops the check.
final class Waiter {
    let number: Int
    let scene: String
    let transition: String
    let connection: ClientConnection
    let id: RequestID
    /// Set when the request is part of a batch: the batch is answered once every member is done.
    var batch: PendingBatch?
    var slot = 0

    init(number: Int, scene: String, transition: String, connection: ClientConnection, id: RequestID) {
        self.number = number
        self.scene = scene
        self.transition = transition
        self.connection = connection
        self.id = id
    }

    /// A plugins.check's, not a transition.wait's.
    var isCheck: Bool { scene.isEmpty }
}
