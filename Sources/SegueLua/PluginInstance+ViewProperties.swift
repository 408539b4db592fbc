#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CLuaShim
import SegueKit

/// The view properties in Lua, all from SegueKit's view-property table (`ViewProperty.info`): the shim learns their
/// names at start-up, and a read or write goes by the property's value kind, storage and model range. `frame` (derived
/// from the center and the bounds) and the read-only `id`, `superview`, `subviews` are the shim's fixed names.
extension PluginInstance {
    /// Gives the shim the properties' names, once per process, before the first state is made (`LuaState.init`).
    static let propertyNamesInstalled: Bool = {
        var copies = ViewProperty.allCases.map { strdup($0.info.luaName) }
        defer { for copy in copies { free(copy) } }
        let status = copies.withUnsafeMutableBufferPointer { buffer in
            buffer.withMemoryRebound(to: UnsafePointer<CChar>?.self) {
                segue_set_property_names($0.baseAddress, Int32($0.count))
            }
        }
        return status == 0
    }()

    /// The property a `segue_name` names, nil for the shim's fixed names.
    @inline(__always)
    static func property(_ name: Int32) -> ViewProperty? {
        ViewProperty(rawValue: Int(name) - Int(SEGUE_NAME_FIXED_COUNT.rawValue))
    }

    /// The `segue_name` of a property.
    static func name(of property: ViewProperty) -> Int32 {
        Int32(SEGUE_NAME_FIXED_COUNT.rawValue) + Int32(property.rawValue)
    }

    /// Every name a plugin may set on a view, in the order `segue.view{}` reads them: `frame`, then the table's.
    static let viewProperties = ["frame"] + ViewProperty.listed.map(\.info.luaName)

    /// Pushes the model value of `property` of `view`, in the shape of its kind.
    func pushModel(_ property: ViewProperty, of view: View) {
        // The kind and the storage from the table's flat layout: `property.info` would build the whole entry.
        let layout = ViewPropertyLayout.shared
        let o = layout.storage[property.rawValue]
        switch o {
        case ViewPropertyLayout.zPosition: return state.push(view.z)
        case ViewPropertyLayout.hiddenFlag: return state.push(view.hidden)
        case ViewPropertyLayout.gradient: return pushGradientPart(property, of: view)
        default: break
        }
        let c = view.model.channels
        switch layout.kinds[property.rawValue] {
        case .number: state.push(c[o])
        case .boolean: state.push(c[o] != 0)
        case .point: pushPoint(Point(x: c[o], y: c[o + 1]))
        case .size:
            state.newTable(fieldCount: 2)
            state.push(c[o]); state.setRawField(-2, "w")
            state.push(c[o + 1]); state.setRawField(-2, "h")
        case .rect: push(Rect(x: c[o], y: c[o + 1], w: c[o + 2], h: c[o + 3]))
        case .transform: push(Transform3D(values: Array(c[o..<(o + 16)])))
        case .color: state.push(Color(r: c[o], g: c[o + 1], b: c[o + 2], a: c[o + 3]).hex)
        case .colorList, .numberList, .gradientType: state.pushNil()  // gradient parts: `pushGradientPart`
        }
    }

    /// Sets `property` of `view` from the Lua value at `i`, read by the property's kind and admitted by its model
    /// range; returns an error message when the value does not fit (`view.NAME expects …, got …`).
    func setProperty(_ view: View, _ property: ViewProperty, at i: Int32, in scene: Scene) -> String? {
        // The scalar kinds (alpha, corner_radius, z), most of a plugin's writes: the kind and the range from the
        // table's flat layout, one value to the scene, no scratch of 16 values and no table entry built.
        let layout = ViewPropertyLayout.shared
        if layout.kinds[property.rawValue] == .number {
            guard let x = state.number(at: i), let admitted = layout.ranges[property.rawValue].admit(x) else {
                return PluginInstance.expects(property, got: describe(at: i))
            }
            scene.set(view, property, value: admitted)
            return nil
        }
        if layout.storage[property.rawValue] == ViewPropertyLayout.gradient {
            return setGradientProperty(view, property, at: i, in: scene)
        }
        let kind = layout.kinds[property.rawValue]
        var v: (Double, Double, Double, Double, Double, Double, Double, Double,
                Double, Double, Double, Double, Double, Double, Double, Double) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let count = kind.count
        var refusal: String?
        let read: Bool = withUnsafeMutableBytes(of: &v) { raw in
            let out = raw.bindMemory(to: Double.self)
            switch kind {
            case .number:
                guard let x = state.number(at: i), let admitted = layout.ranges[property.rawValue].admit(x) else { return false }
                out[0] = admitted
            case .boolean:
                guard state.type(at: i) == LUA_TBOOLEAN else { return false }
                out[0] = state.bool(at: i) ? 1 : 0
            case .point:
                guard state.type(at: i) == LUA_TTABLE, let x = state.numberField(i, SEGUE_KEY_X),
                    let y = state.numberField(i, SEGUE_KEY_Y), x.isFinite, y.isFinite
                else { return false }
                out[0] = x
                out[1] = y
            case .size:
                guard state.type(at: i) == LUA_TTABLE, let w = state.numberField(i, SEGUE_KEY_W),
                    let h = state.numberField(i, SEGUE_KEY_H), w.isFinite, h.isFinite
                else { return false }
                out[0] = w
                out[1] = h
            case .rect:
                guard let r = rect(at: i) else { return false }
                // A model size is never negative (presentation values may still cross zero while a spring overshoots).
                if let message = PluginInstance.negativeSize(r, "view.\(layout.names[property.rawValue])") {
                    refusal = message
                    return false
                }
                (out[0], out[1], out[2], out[3]) = (r.x, r.y, r.w, r.h)
            case .transform:
                // Read by the shim straight into the 16 values and widened in place (as `transform(at:)` and
                // Transform3D's initialisers make it): no Transform3D, no array for a full matrix, no second copy.
                guard let base = out.baseAddress else { return false }
                switch UInt32(bitPattern: segue_transformfields(state.L, i, base)) {
                case SEGUE_TRANSFORM_IDENTITY.rawValue:
                    for k in 0..<16 { out[k] = k % 5 == 0 ? 1 : 0 }
                case SEGUE_TRANSFORM_AFFINE.rawValue:
                    let (a, b, c, d, tx, ty) = (out[0], out[1], out[2], out[3], out[4], out[5])
                    (out[0], out[1], out[2], out[3]) = (a, b, 0, 0)
                    (out[4], out[5], out[6], out[7]) = (c, d, 0, 0)
                    (out[8], out[9], out[10], out[11]) = (0, 0, 1, 0)
                    (out[12], out[13], out[14], out[15]) = (tx, ty, 0, 1)
                case SEGUE_TRANSFORM_MATRIX.rawValue:
                    break
                default:
                    return false
                }
            case .color:
                guard let text = state.string(at: i), let c = Color(hex: text) else { return false }
                (out[0], out[1], out[2], out[3]) = (c.r, c.g, c.b, c.a)
            case .colorList, .numberList, .gradientType:
                return false  // gradient parts: `setGradientProperty`
            }
            return true
        }
        guard read else { return refusal ?? PluginInstance.expects(property, got: describe(at: i, as: kind)) }
        withUnsafeBytes(of: &v) { scene.set(view, property, values: UnsafeBufferPointer(rebasing: $0.bindMemory(to: Double.self)[0..<count])) }
        return nil
    }

    /// `view.NAME expects KIND[ RANGE], got VALUE`.
    static func expects(_ property: ViewProperty, got: String) -> String {
        let info = property.info
        let range = info.range.description.map { " " + $0 } ?? ""
        return "view.\(info.luaName) expects \(info.kind.expected)\(range), got \(got)"
    }

    /// What a refused value was, for a point or a transform the fields that are no finite number (`{x=nan,
    /// y=0.5}`, `{m[12]=inf}`) so the error names the value; else as `describe(at:)`.
    func describe(at i: Int32, as kind: ViewValueKind) -> String {
        guard state.type(at: i) == LUA_TTABLE, kind == .point || kind == .transform else { return describe(at: i) }
        let t = i < 0 ? lua_gettop(state.L) + i + 1 : i
        func field(_ key: String) -> String {
            state.rawField(t, key)
            defer { state.pop() }
            return describe(at: -1)
        }
        if kind == .point { return "{x=\(field("x")), y=\(field("y"))}" }
        var bad: [String] = []
        if state.rawField(t, "m") == LUA_TTABLE {
            for k in 1...16 {
                state.rawIndex(-1, k)
                if !(state.number(at: -1)?.isFinite ?? false) { bad.append("m[\(k)]=\(describe(at: -1))") }
                state.pop()
            }
        }
        state.pop()
        for key in ["a", "b", "c", "d", "tx", "ty"] {
            state.rawField(t, key)
            if state.type(at: -1) != LUA_TNIL, !(state.number(at: -1)?.isFinite ?? false) {
                bad.append("\(key)=\(describe(at: -1))")
            }
            state.pop()
        }
        return bad.isEmpty ? "table" : "{" + bad.joined(separator: ", ") + "}"
    }

    /// What a refused value was: a number as written, else its Lua type.
    func describe(at i: Int32) -> String {
        if state.type(at: i) == LUA_TNUMBER, let n = state.number(at: i) { return ModelRange.text(n) }
        return state.typeName(at: i)
    }
}
