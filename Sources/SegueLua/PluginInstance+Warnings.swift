import CLuaShim
import SegueKit

/// Warnings with their kind and place, and tracebacks that name the plugin's functions.
extension PluginInstance {
    /// The plugin file's name as warnings carry it (`zoom-thumb.lua`).
    var fileName: String { PluginHost.fileName(file) }

    /// A warning about the code running now: its line is the innermost frame of the plugin's file on the stack.
    func warn(_ code: PluginWarning.Code, _ message: String) {
        let line = Int(segue_plugin_line(state.L))
        onWarning?(PluginWarning(code: code, message: message, file: fileName, line: line > 0 ? line : nil))
    }

    /// A callback the host called later raised: said once ("X raised: …"), with the line the error names.
    func warnRaised(_ what: String, _ error: LuaError) {
        let place = PluginWarning.location(in: error.message)
        onWarning?(PluginWarning(code: .raisedInCallback, message: PluginWarning.raised(what, error.message),
                                 file: place?.file ?? fileName, line: place?.line))
    }

    /// Names the functions of the description at `table` by their fields, for tracebacks (`in function
    /// 'animate'`); the stack is left as it was.
    func nameFunctions(of table: Int32) {
        let base = state.top
        defer { state.setTop(base) }
        guard state.type(at: table) == LUA_TTABLE else { return }
        var named = 0
        state.pushNil()
        while lua_next(state.L, table) != 0, named < 64 {  // [... key value]
            if state.type(at: -2) == LUA_TSTRING, state.type(at: -1) == LUA_TFUNCTION, let key = state.string(at: -2) {
                segue_name_function(state.L, -1, key)
                named += 1
            }
            state.pop()  // [... key]
        }
    }
}
