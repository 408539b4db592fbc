/// The friendly `segue` API, written in Lua over the host's primitives (mpv's defaults.lua pattern). It runs in
/// every plugin state before the plugin file, receives the primitives table as `...`, keeps it in locals the
/// plugin cannot reach, and returns `describe`, which turns what a plugin file returned into a list of plugins.
enum Prelude {
    static let source = #"""
local host = ...
local type, error, tostring, select, setmetatable, rawget, next = type, error, tostring, select, setmetatable, rawget, next
local concat = table.concat
local cos, sin, sqrt = math.cos, math.sin, math.sqrt

math.randomseed(0x5E9ED)

local segue = { api = 1 }
local described = setmetatable({}, { __mode = "k" })

local function constructor(kind)
  return function(t)
    if type(t) ~= "table" then error("segue." .. kind .. " expects a table, got " .. type(t), 2) end
    described[t] = kind
    return t
  end
end
segue.animator = constructor("animator")
segue.interaction = constructor("interaction")
segue.delegate = constructor("delegate")
segue.presentation = constructor("presentation")

-- Geometry ----------------------------------------------------------------------------------------------
function segue.rect(x, y, w, h) return { x = x or 0, y = y or 0, w = w or 0, h = h or 0 } end
function segue.offset(r, dx, dy) return { x = r.x + (dx or 0), y = r.y + (dy or 0), w = r.w, h = r.h } end
function segue.inset(r, top, left, bottom, right)
  return { x = r.x + left, y = r.y + top, w = r.w - left - right, h = r.h - top - bottom }
end

local T = {}
T.identity = { a = 1, b = 0, c = 0, d = 1, tx = 0, ty = 0 }
function T.translate(tx, ty) return { a = 1, b = 0, c = 0, d = 1, tx = tx or 0, ty = ty or 0 } end
function T.scale(sx, sy) sy = sy or sx; return { a = sx, b = 0, c = 0, d = sy, tx = 0, ty = 0 } end
function T.rotate(r) local c, s = cos(r), sin(r); return { a = c, b = s, c = -s, d = c, tx = 0, ty = 0 } end
local function to_m(t)
  if t.m then return t.m end
  return { t.a, t.b, 0, 0, t.c, t.d, 0, 0, 0, 0, 1, 0, t.tx, t.ty, 0, 1 }
end
-- CGAffineTransformConcat / CATransform3DConcat: `a` then `b`.
function T.concat(a, b)
  if not a.m and not b.m then
    return { a = a.a * b.a + a.b * b.c, b = a.a * b.b + a.b * b.d,
             c = a.c * b.a + a.d * b.c, d = a.c * b.b + a.d * b.d,
             tx = a.tx * b.a + a.ty * b.c + b.tx, ty = a.tx * b.b + a.ty * b.d + b.ty }
  end
  local p, q, m = to_m(a), to_m(b), {}
  for i = 0, 3 do
    for j = 0, 3 do
      local s = 0
      for k = 0, 3 do s = s + p[i * 4 + k + 1] * q[k * 4 + j + 1] end
      m[i * 4 + j + 1] = s
    end
  end
  return { m = m }
end
function T.invert(t)
  if t.m then error("segue.transform.invert: only 2-D transforms can be inverted", 2) end
  local det = t.a * t.d - t.b * t.c
  if det == 0 then return t end
  return { a = t.d / det, b = -t.b / det, c = -t.c / det, d = t.a / det,
           tx = (t.c * t.ty - t.d * t.tx) / det, ty = (t.b * t.tx - t.a * t.ty) / det }
end
-- The perspective of a flip: m34 = -1/d.
function T.perspective(d)
  return { m = { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, -1 / d, 0, 0, 0, 1 } }
end
-- CATransform3DMakeRotation(angle, x, y, z).
function T.rotate3d(angle, x, y, z)
  local len = sqrt(x * x + y * y + z * z)
  if len == 0 then return T.identity end
  x, y, z = x / len, y / len, z / len
  local c, s = cos(angle), sin(angle)
  local t = 1 - c
  return { m = { c + t * x * x, t * x * y + s * z, t * x * z - s * y, 0,
                 t * x * y - s * z, c + t * y * y, t * y * z + s * x, 0,
                 t * x * z + s * y, t * y * z - s * x, c + t * z * z, 0,
                 0, 0, 0, 1 } }
end
segue.transform = T

-- Views -------------------------------------------------------------------------------------------------
local view_get, view_set = host.view_get, host.view_set
local view_methods = {
  add = function(self, v) return host.view_add(self, v) end,
  insert = function(self, v, i) return host.view_insert(self, v, i) end,
  remove = function(self) return host.view_remove(self) end,
  bring_to_front = function(self) return host.view_front(self) end,
  snapshot = function(self, rect, options) return host.view_snapshot(self, rect, options) end,
  add_animation = function(self, key, spec, completion)
    if completion ~= nil and type(completion) ~= "function" then
      error("view:add_animation(key, spec, completion?): completion must be a function or nil, got " .. type(completion), 2)
    end
    return host.view_add_animation(self, key, spec, completion)
  end,
  remove_animation = function(self, key) return host.view_remove_animation(self, key) end,
  animation_keys = function(self) return host.view_animation_keys(self) end,
}
-- __index and __newindex are host functions (no Lua frame per property access): set_metatable installs __index,
-- which answers view_methods[k] first (in C), then the property; its errors are view_get's and view_set's own
-- messages.
host.set_metatable("view", {
  __newindex = view_set,
  __eq = function(a, b) return host.view_same(a, b) end,
  __tostring = function(self) return "view(" .. tostring(view_get(self, "id")) .. ")" end,
  __metatable = "locked",
}, view_methods)
function segue.view(opts) return host.new_view(opts or {}) end
function segue.gradient_view(opts) return host.new_gradient_view(opts or {}) end

-- The transition context --------------------------------------------------------------------------------
local ctx_get = host.ctx_get
local ctx_methods = {
  view = host.ctx_view,  -- the host function itself: no Lua frame per call (its errors are its own messages)
  vc = function(self, key) return host.ctx_vc(self, key) end,
  initial_frame = function(self, k) return host.ctx_frame(self, k, false) end,
  final_frame = function(self, k) return host.ctx_frame(self, k, true) end,
  complete = function(self, did_complete) return host.ctx_complete(self, did_complete) end,
  update = function(self, p) return host.ctx_drive(self, "update", p) end,
  finish = function(self) return host.ctx_drive(self, "finish") end,
  cancel = function(self) return host.ctx_drive(self, "cancel") end,
  pause = function(self) return host.ctx_drive(self, "pause") end,
}
-- Host tables handed to plugins (ctx.coordinator, pc.coordinator, tr, pc): locked as ctx and views are — a
-- protected metatable (setmetatable raises, getmetatable answers "locked") and no rawset (the sandbox's rawset
-- refuses them). Weak keys: a locked table goes when the plugin lets it go.
local locked = setmetatable({}, { __mode = "k" })
local function lock(t)
  locked[t] = true
  return t
end
-- UIViewControllerContextTransitioning.targetTransform: identity, as no size transition of segued rotates.
ctx_methods.target_transform = lock(setmetatable({}, {
  __index = T.identity,
  __newindex = function() error("ctx.target_transform is read-only", 2) end,
  __pairs = function() return next, T.identity, nil end,
  __metatable = "locked",
}))
-- The transition coordinator (ctx.coordinator, pc.coordinator): a locked host table. Its methods sit behind
-- __index (pairs still lists them, through __pairs), so no field can be added or replaced, and its metatable is
-- protected.
local function coordinator_read_only(self, k)
  error("the transition coordinator is read-only (setting '" .. tostring(k) .. "')", 2)
end
local function coordinator_name() return "coordinator" end
-- The coordinator context (UIViewControllerTransitionCoordinatorContext) handed to alongside's functions: a locked
-- table whose fields are read live from the transition.
local coord_field = host.coord_field
local function coordinator_context(ctx)
  return lock(setmetatable({}, {
    __index = function(_, k) return coord_field(ctx, k) end,
    __newindex = function(_, k)
      error("the coordinator context is read-only (setting '" .. tostring(k) .. "')", 2)
    end,
    __tostring = function() return "coordinator_context" end,
    __metatable = "locked",
  }))
end
local function alongside(ctx, animations, completion)
  if type(animations) ~= "function" or (completion ~= nil and type(completion) ~= "function") then
    return host.coord_alongside(ctx, animations, completion)  -- its own error
  end
  local cctx = coordinator_context(ctx)
  return host.coord_alongside(ctx, function() return animations(cctx) end,
    completion and function() return completion(cctx) end)
end
local function coordinator_of(ctx)
  local methods = {
    alongside = function(self, animations, completion) return alongside(ctx, animations, completion) end,
    alongside_in = function(self, view, animations, completion)
      host.coord_in_view(ctx, view)
      return alongside(ctx, animations, completion)
    end,
    on_interaction_change = function(self, fn) return host.coord_change(ctx, fn) end,
  }
  return lock(setmetatable({}, {
    __index = methods,
    __newindex = coordinator_read_only,
    __pairs = function() return next, methods, nil end,
    __tostring = coordinator_name,
    __metatable = "locked",
  }))
end
-- __index (installed by set_metatable): ctx_methods[k] and the fields that cannot change once read (in C), then
-- `coordinator` (coordinator_of), then the field.
host.set_metatable("ctx", {
  -- Its fields are read-only (an error); a name it does not have is a warning with the nearest name.
  __newindex = function(self, k)
    if host.warn_unknown("ctx field", k) then
      error("the transition context is read-only (setting '" .. tostring(k) .. "')", 2)
    end
  end,
  __tostring = function(self) return "ctx(" .. tostring(ctx_get(self, "id")) .. ")" end,
  __metatable = "locked",
}, ctx_methods, coordinator_of)

-- Animations and the clock ------------------------------------------------------------------------------
local warn_unknown = host.warn_unknown
local animation_options, transition_options = host.names("animation option"), host.names("segue.transition option")
-- Keys an options table has that the API does not know: a warning each (once per name), never an error; sorted,
-- so the warnings come in the same order on every run.
local sort = table.sort
local function check_keys(opts, known, kind)
  local unknown
  for k in next, opts do
    if not known[k] then
      unknown = unknown or {}
      unknown[#unknown + 1] = tostring(k)
    end
  end
  if unknown then
    sort(unknown)
    for i = 1, #unknown do warn_unknown(kind, unknown[i]) end
  end
end
-- host.animate checks the argument types first: for a wrong one it does nothing and answers the message
-- ("segue.animate: opts must be a table, got nil", ...), raised here at level 2 so that the position is the
-- caller's line, as when these checks were Lua here (three `type` calls per segue.animate). Then it checks opts'
-- keys against animation_options (check_keys when one is unknown), reads the options and runs the block.
-- This wrapper stays a Lua function (not host.animate itself) so that a tail call `return segue.animate(...)`
-- reports its errors at the same level as before (a tail-called Lua function replaces its caller's frame; a C
-- function does not). The prelude's later lines keep their numbers.
function segue.animate(opts, animations, completion)
  local bad = host.animate(opts, animations, completion)
  if bad ~= nil then error(bad, 2) end
end
host.set_key_check(check_keys, animation_options)
local keyframe = host.keyframe
local function add_keyframe(rel_start, rel_duration, fn) return keyframe(rel_start, rel_duration, fn) end
function segue.keyframes(opts, keyframes, completion)
  if type(opts) ~= "table" then error("segue.keyframes: opts must be a table, got " .. type(opts), 2) end
  if type(keyframes) ~= "function" then
    error("segue.keyframes: the second argument must be function(add) ... end, got " .. type(keyframes), 2)
  end
  if completion ~= nil and type(completion) ~= "function" then
    error("segue.keyframes: completion must be a function or nil, got " .. type(completion), 2)
  end
  check_keys(opts, animation_options, "animation option")
  return host.keyframes(opts, keyframes, add_keyframe, completion)
end
function segue.transition(from, to, opts, completion)
  if type(opts) ~= "table" then error("segue.transition: the third argument must be {duration=, options=}", 2) end
  if completion ~= nil and type(completion) ~= "function" then
    error("segue.transition: completion must be a function or nil, got " .. type(completion), 2)
  end
  check_keys(opts, transition_options, "segue.transition option")
  return host.transition(from, to, opts, completion)
end
function segue.settling_duration(spring) return host.settling_duration(spring) end
function segue.after(seconds, fn)
  if type(seconds) ~= "number" then error("segue.after: seconds must be a number", 2) end
  if type(fn) ~= "function" then error("segue.after: fn must be a function", 2) end
  return host.after(seconds, fn)
end
segue.now = host.now

-- Property animators (UIViewPropertyAnimator): a locked table per animator, its number in `pa_ids` (weak keys);
-- methods are called with a colon, fields read and written through the host.
local pa_ids = setmetatable({}, { __mode = "k" })
local pa_call, pa_get, pa_set = host.pa_call, host.pa_get, host.pa_set
local pa_options = host.names("property animator option")
local pa_methods = {}
for _, m in next, { "add_animations", "add_completion", "start", "pause", "continue", "stop", "finish" } do
  pa_methods[m] = function(self, ...)
    local id = pa_ids[self]
    if id == nil then error("pa:" .. m .. "(...): call it with a colon on a property animator (pa:" .. m .. "(...))", 2) end
    return pa_call(id, m, ...)
  end
end
local pa_meta = {
  __index = function(t, k)
    local m = pa_methods[k]
    if m ~= nil then return m end
    return pa_get(pa_ids[t], k)
  end,
  __newindex = function(t, k, v) return pa_set(pa_ids[t], k, v) end,
  __pairs = function() return next, pa_methods, nil end,
  __tostring = function(t) return "property_animator(" .. tostring(pa_ids[t]) .. ")" end,
  __metatable = "locked",
}
host.set_pa_lookup(function(t) return pa_ids[t] end)
function segue.property_animator(opts)
  if type(opts) ~= "table" then
    error("segue.property_animator expects a table {duration=, curve= | spring=}, got " .. type(opts), 2)
  end
  check_keys(opts, pa_options, "property animator option")
  local id = host.pa_new(opts)
  local pa = setmetatable({}, pa_meta)
  pa_ids[pa] = id
  return lock(pa)
end
function segue.log(...)
  local parts = {}
  for i = 1, select("#", ...) do parts[i] = tostring((select(i, ...))) end
  return host.log(concat(parts, " "))
end

-- `tr` and `pc` are plain tables the plugin may read; a field they do not have is kept (API-1 plugins may rely
-- on it) with a warning naming the nearest field and `state`, where a plugin's own values belong.
local rawset = rawset
local function fields_of(kind)
  return { __newindex = function(t, k, v)
    warn_unknown(kind, k)
    rawset(t, k, v)
  end, __metatable = "locked" }
end
local tr_fields, pc_fields = fields_of("tr field"), fields_of("pc field")

-- ctx.info: a read-only copy of the request's `info` (fresh tables each read, each behind a locked proxy).
local function readonly_copy(t)
  for k, v in next, t do
    if type(v) == "table" then t[k] = readonly_copy(v) end
  end
  return lock(setmetatable({}, {
    __index = t,
    __newindex = function(_, k) error("ctx.info is read-only (setting '" .. tostring(k) .. "')", 2) end,
    __len = function() return #t end,
    __pairs = function() return next, t, nil end,
    __metatable = "locked",
  }))
end
host.set_info_hook(readonly_copy)

-- Interaction plugins: one `tr` per transition, its `state` kept between calls.
local trs = {}
host.set_interaction_hook(function(desc, method, id, percent, duration, kind, container, g, scene_info)
  if method == "forget" then trs[id] = nil return end
  if method == "gesture_began" then
    -- Gesture-first interaction: no transition (and no `tr`) yet; (has it, what it chose).
    local fn = desc.gesture_began
    if fn == nil then return false end
    if type(fn) ~= "function" then error("the interaction's gesture_began is not a function", 0) end
    return true, (fn(g, scene_info))
  end
  local tr = trs[id]
  if tr == nil then
    tr = lock(setmetatable({ state = {} }, tr_fields))
    tr.update = function(p)
      if type(p) ~= "number" then error("tr.update(p): p must be a number, got " .. type(p), 2) end
      host.tr_update(id, p)
      tr.percent = host.tr_percent(id)
    end
    tr.finish = function() host.tr_end(id, false); tr.percent = host.tr_percent(id) end
    tr.cancel = function() host.tr_end(id, true); tr.percent = host.tr_percent(id) end
    trs[id] = tr
  end
  tr.percent, tr.duration, tr.kind, tr.container = percent, duration, kind, container
  local fn = desc[method]
  if fn == nil then return nil end
  if type(fn) ~= "function" then error("the interaction's " .. method .. " is not a function", 0) end
  if g == nil then return fn(tr) end
  return fn(tr, g)
end)

-- Presentation plugins: one `pc` per presentation, its `state` kept between calls.
local pcs = {}
-- A size transition's coordinator (will_transition_to_size): alongside animates with the resize's duration.
local function size_coordinator(duration)
  local methods = {
    alongside = function(self, animations, completion)
      if type(animations) ~= "function" then
        error("coordinator:alongside(animations, completion?): animations must be a function", 2)
      end
      return segue.animate({ duration = duration }, animations, completion)
    end,
    on_interaction_change = function(self, fn) end,
  }
  return lock(setmetatable({}, {
    __index = methods,
    __newindex = coordinator_read_only,
    __pairs = function() return next, methods, nil end,
    __tostring = coordinator_name,
    __metatable = "locked",
  }))
end
host.set_presentation_hook(function(desc, method, key, container, presented, presenting, ctx, completed, extra)
  if method == "forget" then pcs[key] = nil return end
  local pc = pcs[key]
  if pc == nil then
    pc = lock(setmetatable({ state = {} }, pc_fields))
    pcs[key] = pc
  end
  pc.container, pc.presented, pc.presenting = container, presented, presenting
  pc.presented_view = presented.view
  pc.coordinator = ctx and coordinator_of(ctx) or nil
  local fn = desc[method]
  if fn == nil then return nil end
  if type(fn) ~= "function" then error("the presentation's " .. method .. " is not a function", 0) end
  if method == "adaptive_style" then return fn(pc, extra) end
  if method == "will_transition_to_size" then
    pc.coordinator = size_coordinator(extra.duration)
    return fn(pc, { w = extra.w, h = extra.h })
  end
  if completed == nil then return fn(pc) end
  return fn(pc, completed)
end)

_G.segue = segue
-- The plugin's rawset: the stock one, but not on a locked host table.
_G.rawset = function(t, k, v)
  if locked[t] then error("rawset: this table belongs to the host and is locked", 2) end
  return rawset(t, k, v)
end

return function(value)
  if type(value) ~= "table" then
    return nil, "the file must return a plugin made by segue.animator{} (or a list of plugins), not a " .. type(value)
  end
  local kind = described[value]
  if kind then return { { kind = kind, desc = value } } end
  local list = {}
  for i = 1, #value do
    local k = described[value[i]]
    if not k then return nil, "item " .. i .. " of the returned list is not a plugin made by segue.*{}" end
    list[i] = { kind = k, desc = value[i] }
  end
  if #list == 0 then return nil, "the file returned a table that is not a plugin (use segue.animator{...})" end
  return list
end
"""#
}
