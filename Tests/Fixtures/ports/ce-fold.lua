-- VCTransitionsLibrary's CEFoldAnimationController (Colin Eberhardt), ported to segued's API as an outside author
-- would write it, for GradientPortTests: the views folded in `folds` strips of region snapshots, each hinged at its
-- anchor point under the container's perspective, and each with the gradient shadow of `addShadowToView:reverse:`
-- (a CAGradientLayer from clear black to opaque black) whose alpha the animation takes 0 → 1 (folding away) or
-- 1 → 0 (unfolding).
local folds = 2

-- addShadowToView:reverse: — a view of the snapshot's frame holding the snapshot and, on top, the shadow: a gradient
-- view with CEFold's colours and points.
local function add_shadow(view, reverse)
  local holder = segue.view { frame = view.frame, color = '#00000000' }
  local shadow = segue.gradient_view {
    frame = segue.rect(0, 0, view.frame.w, view.frame.h),
    colors = { '#00000000', '#000000ff' },
    start_point = { x = reverse and 0.0 or 1.0, y = reverse and 0.2 or 0.0 },
    end_point = { x = reverse and 1.0 or 0.0, y = reverse and 0.0 or 1.0 },
  }
  local f = view.frame
  view.frame = segue.rect(0, 0, f.w, f.h)
  holder:add(view)
  holder:add(shadow)
  return holder, shadow
end

local function fold_snapshot(container, view, offset, left, fold_width, after)
  local size = view.frame
  local snapshot = view:snapshot({ x = offset, y = 0, w = fold_width, h = size.h }, { after_updates = after })
  local holder, shadow = add_shadow(snapshot, left)
  container:add(holder)
  holder.anchor_point = { x = left and 0.0 or 1.0, y = 0.5 }
  return holder, shadow
end

return segue.animator {
  duration = function() return 1.0 end,
  animate = function(ctx)
    local container = ctx.container
    local from, to = ctx:view('from'), ctx:view('to')
    local reverse = ctx.direction == 'reverse'
    local final = ctx:final_frame('to')
    to.frame = final
    container:add(to)
    local perspective = segue.transform.perspective(200)  -- m34 = -0.005
    container.sublayer_transform = perspective
    local size = { w = final.w, h = final.h }
    local fold_width = size.w * 0.5 / folds
    local from_folds, to_folds, shadows = {}, {}, {}
    for i = 0, folds - 1 do
      local offset = i * fold_width * 2
      local lf, ls = fold_snapshot(container, from, offset, true, fold_width, false)
      lf.position = { x = offset, y = size.h / 2 }
      ls.alpha = 0
      local rf, rs = fold_snapshot(container, from, offset + fold_width, false, fold_width, false)
      rf.position = { x = offset + fold_width * 2, y = size.h / 2 }
      rs.alpha = 0
      local lt, lts = fold_snapshot(container, to, offset, true, fold_width, true)
      lt.position = { x = reverse and size.w or 0, y = size.h / 2 }
      lt.transform = segue.transform.rotate3d(math.pi / 2, 0, 1, 0)
      local rt, rts = fold_snapshot(container, to, offset + fold_width, false, fold_width, true)
      rt.position = { x = reverse and size.w or 0, y = size.h / 2 }
      rt.transform = segue.transform.rotate3d(-math.pi / 2, 0, 1, 0)
      from_folds[#from_folds + 1] = { lf, ls }
      from_folds[#from_folds + 1] = { rf, rs }
      to_folds[#to_folds + 1] = { lt, lts }
      to_folds[#to_folds + 1] = { rt, rts }
      shadows[#shadows + 1] = ls
    end
    from.hidden = true
    to.hidden = true
    segue.animate({ duration = ctx.duration, curve = 'ease_in_out' }, function()
      for i = 0, folds - 1 do
        local offset = i * fold_width * 2
        local lf, rf = from_folds[i * 2 + 1], from_folds[i * 2 + 2]
        lf[1].position = { x = reverse and 0 or size.w, y = size.h / 2 }
        lf[1].transform = segue.transform.concat(segue.transform.rotate3d(math.pi / 2, 0, 1, 0), perspective)
        lf[2].alpha = 1
        rf[1].position = { x = reverse and 0 or size.w, y = size.h / 2 }
        rf[1].transform = segue.transform.concat(segue.transform.rotate3d(-math.pi / 2, 0, 1, 0), perspective)
        rf[2].alpha = 1
        local lt, rt = to_folds[i * 2 + 1], to_folds[i * 2 + 2]
        lt[1].position = { x = offset, y = size.h / 2 }
        lt[1].transform = segue.transform.identity
        lt[2].alpha = 0
        rt[1].position = { x = offset + fold_width * 2, y = size.h / 2 }
        rt[1].transform = segue.transform.identity
        rt[2].alpha = 0
      end
    end, function()
      for _, f in ipairs(from_folds) do f[1]:remove() end
      for _, f in ipairs(to_folds) do f[1]:remove() end
      from.hidden = false
      to.hidden = false
      container.sublayer_transform = segue.transform.identity
      to.frame = final
      ctx:complete(not ctx.cancelled)
    end)
  end,
}
