import SegueJSON
import SegueKit

/// One row of the method table: the handler and, beside it, its descriptor.
struct MethodEntry: Sendable {
    let descriptor: MethodDescriptor
    let handler: MethodHandler

    init(_ summary: String, params: [SchemaShape.Field] = [], result: SchemaShape, errors: [RPCErrorCode] = [],
         handler: @escaping @Sendable (Daemon, Params, ClientConnection) throws(RPCError) -> JSONValue)
    {
        descriptor = MethodDescriptor(summary: summary, params: params, result: result, errors: errors)
        self.handler = { d, p, c throws(RPCError) in .value(try handler(d, p, c)) }
    }

    /// A method that may start a transition: its result is the `TransitionStart`, written from its fields.
    init(_ summary: String, params: [SchemaShape.Field] = [], result: SchemaShape, errors: [RPCErrorCode] = [],
         starting handler: @escaping @Sendable (Daemon, Params, ClientConnection) throws(RPCError) -> TransitionStart)
    {
        descriptor = MethodDescriptor(summary: summary, params: params, result: result, errors: errors)
        self.handler = { d, p, c throws(RPCError) in .started(try handler(d, p, c)) }
    }
}
