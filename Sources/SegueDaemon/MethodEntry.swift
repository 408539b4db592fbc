/// One row of the method table: the handler and, beside it, its descriptor.
struct MethodEntry: Sendable {
    let descriptor: MethodDescriptor
    let handler: MethodHandler

    init(_ summary: String, params: [Shape.Field] = [], result: Shape, errors: [RPCErrorCode] = [],
         handler: @escaping MethodHandler)
    {
        descriptor = MethodDescriptor(summary: summary, params: params, result: result, errors: errors)
        self.handler = handler
    }
}
