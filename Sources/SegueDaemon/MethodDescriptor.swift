/// What a method takes, answers and can fail with: declared beside its handler in `Daemon.methods`, so the OpenRPC
/// document rpc.discover answers is made from the table itself and cannot name a method the daemon lacks.
struct MethodDescriptor: Sendable {
    let summary: String
    /// By name (JSON-RPC `params` is an object).
    let params: [SchemaShape.Field]
    let result: SchemaShape
    /// The errors this method can answer besides -32602 (any method: a parameter missing, unknown or wrong) and
    /// -32005 (any method while the daemon drains).
    let errors: [RPCErrorCode]
}
