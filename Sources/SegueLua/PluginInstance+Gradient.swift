import CLuaShim
import SegueKit

/// Gradient views in Lua (`segue.gradient_view{frame, colors, locations?, start_point?, end_point?, type?}`): the
/// constructor, and the reads and writes of a gradient view's parts (`ViewProperty.isGradient`). A bad value is an
/// error naming the property and the value, and the write does not happen.
extension PluginInstance {
    /// Pushes a gradient part of `view`'s model (nil on a view that is no gradient view; `locations` nil when
    /// evenly spaced).
    func pushGradientPart(_ property: ViewProperty, of view: View) {
        guard let g = view.model.gradient else { return state.pushNil() }
        switch property {
        case .colors:
            state.newTable(arrayCount: Int32(g.colorCount))
            for i in 0..<g.colorCount {
                state.push(g.color(i).hex)
                lua_rawseti(state.L, -2, lua_Integer(i + 1))
            }
        case .locations:
            guard !g.locations.isEmpty else { return state.pushNil() }
            state.newTable(arrayCount: Int32(g.locations.count))
            for (i, l) in g.locations.enumerated() {
                state.push(l)
                lua_rawseti(state.L, -2, lua_Integer(i + 1))
            }
        case .startPoint: pushPoint(g.startPoint)
        case .endPoint: pushPoint(g.endPoint)
        case .gradientType: state.push(g.type.rawValue)
        default: state.pushNil()
        }
    }

    /// Reads the gradient part `property` from the Lua value at `i` as flat doubles, or the error saying what is wrong
    /// with it (naming the entry: `view.colors[2] …`).
    func gradientValues(_ property: ViewProperty, at i: Int32) -> Result<[Double], GradientInputError> {
        let name = "view.\(property.name)"
        switch property {
        case .colors, .locations:
            if property == .locations, state.type(at: i) == LUA_TNIL { return .success([]) }
            guard state.type(at: i) == LUA_TTABLE else {
                return .failure(GradientInputError("\(name) expects \(property.info.kind.expected), got \(describe(at: i)) (the write did not happen)"))
            }
            let n = Int(lua_rawlen(state.L, i))
            guard n <= GradientCheck.maxStops else {
                return .failure(GradientInputError("\(name) has \(n) entries, more than \(GradientCheck.maxStops) (the write did not happen)"))
            }
            var out: [Double] = []
            out.reserveCapacity(property == .colors ? 4 * n : n)
            for k in 1...max(1, n) where n > 0 {
                state.rawIndex(i, k)
                defer { state.pop() }
                if property == .colors {
                    guard let text = state.string(at: -1), state.type(at: -1) == LUA_TSTRING, let c = Color(hex: text) else {
                        let got = state.type(at: -1) == LUA_TSTRING ? "\"\(LuaError.bounded(state.string(at: -1) ?? ""))\"" : describe(at: -1)
                        return .failure(GradientInputError("\(name)[\(k)] expects \"#rrggbb\" or \"#rrggbbaa\", got \(got) (the write did not happen)"))
                    }
                    out += [c.r, c.g, c.b, c.a]
                } else {
                    guard state.type(at: -1) == LUA_TNUMBER, let x = state.number(at: -1) else {
                        return .failure(GradientInputError("\(name)[\(k)] must be a number in 0…1, got \(describe(at: -1)) (the write did not happen)"))
                    }
                    out.append(x)
                }
            }
            return .success(out)
        case .startPoint, .endPoint:
            guard state.type(at: i) == LUA_TTABLE, let x = state.numberField(i, SEGUE_KEY_X),
                let y = state.numberField(i, SEGUE_KEY_Y), x.isFinite, y.isFinite
            else {
                return .failure(GradientInputError("\(name) expects a point {x=, y=} of finite numbers (unit coordinates), got \(describe(at: i, as: .point)) (the write did not happen)"))
            }
            return .success([x, y])
        case .gradientType:
            guard let text = state.string(at: i), state.type(at: i) == LUA_TSTRING, let t = GradientType(rawValue: text) else {
                let got = state.type(at: i) == LUA_TSTRING ? "\"\(LuaError.bounded(state.string(at: i) ?? ""))\"" : describe(at: i)
                return .failure(GradientInputError("view.type expects \"axial\", \"radial\" or \"conic\", got \(got) (the write did not happen)"))
            }
            return .success([t.code])
        default:
            return .failure(GradientInputError("\(name) is not a gradient property"))
        }
    }

    /// Sets the gradient part `property` of `view` from the Lua value at `i`; the error when it is refused.
    func setGradientProperty(_ view: View, _ property: ViewProperty, at i: Int32, in scene: Scene) -> String? {
        if view.model.gradient == nil { return scene.gradientRefusal(view, property, []) }
        switch gradientValues(property, at: i) {
        case .failure(let error): return error.message
        case .success(let values):
            if let refusal = scene.gradientRefusal(view, property, values) { return refusal }
            scene.set(view, property, values)
            return nil
        }
    }

    /// `segue.gradient_view{…}`: a new view drawn by a CAGradientLayer. `colors` is required; the other fields are
    /// `segue.view{}`'s (its colour clear unless given, as a CAGradientLayer's backgroundColor is nil).
    func newGradientView(_ s: LuaState) -> HostResult {
        guard let scene else { return .error("segue.gradient_view: no scene") }
        guard s.type(at: 1) == LUA_TTABLE else { return .error("segue.gradient_view expects a table") }
        s.rawField(1, "colors")
        let colors: [Double]
        switch s.type(at: -1) == LUA_TNIL
            ? .failure(GradientInputError("colors is required: a list of at least one colour {\"#rrggbb\", …}"))
            : gradientValues(.colors, at: s.top)
        {
        case .failure(let error):
            s.pop()
            return .error("segue.gradient_view: \(error.message)")
        case .success(let values): colors = values
        }
        s.pop()
        if let refusal = GradientCheck.colorsRefusal(colors, locations: []) { return .error("segue.gradient_view: \(refusal)") }
        var gradient = GradientValues()
        gradient.colors = colors
        do throws(EngineError) {
            let view = try scene.makeGradientView(frame: .zero, gradient: gradient)
            pushView(view)
            let ud = s.top
            for (key, name) in PluginInstance.newViewOptions {
                s.rawField(1, key)
                defer { s.pop() }
                if s.isNil(-1) { continue }
                if let message = setProperty(view, name, at: s.top, in: scene) {
                    scene.destroyViewForPlugin(view)
                    return .error("segue.gradient_view: \(message)")
                }
            }
            s.setTop(ud)
            return .results(1)
        } catch {
            return .error("segue.gradient_view: \(error.message)")
        }
    }
}

/// A gradient value a plugin gave that cannot be read.
struct GradientInputError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
