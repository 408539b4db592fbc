---@meta segue
-- LuaLS definitions of segued's plugin API, version 1 (docs/PLUGIN_API.md), for editors: completion, hover
-- documentation and warnings while typing (`to.alpah`, `curve = "easeOut"`). plugins/.luarc.json points the
-- language server here. This file is never loaded as a plugin: the daemon loads only *.lua files directly in the
-- plugins folder, never subfolders. A test (Tests/SegueLuaTests/LuaDefinitionsTests.swift) keeps every name here
-- equal to what the sandbox exposes, both ways.

---@alias segue.CurveName "linear"|"ease_in"|"ease_out"|"ease_in_out"|"default"
---A named curve or a cubic Bézier {x1, y1, x2, y2} (x1, x2 in 0…1).
---@alias segue.Curve segue.CurveName|number[]
---@alias segue.TransitionKind "select"|"push"|"pop"|"set"|"present"|"dismiss"
---@alias segue.Direction "forward"|"backward"
---@alias segue.PresentationStyle "fullScreen"|"custom"|"overFullScreen"
---@alias segue.ViewTransitionOption "flip_from_left"|"flip_from_right"|"flip_from_top"|"flip_from_bottom"|"curl_up"|"curl_down"|"cross_dissolve"
---@alias segue.GesturePhase "began"|"changed"|"ended"|"cancelled"
---`"#rrggbb"` or `"#rrggbbaa"`.
---@alias segue.Color string

---@class (exact) segue.Rect
---@field x number
---@field y number
---@field w number
---@field h number

---@class (exact) segue.Point
---@field x number
---@field y number

---@class (exact) segue.Size
---@field w number
---@field h number

---A 2-D affine transform (CGAffineTransform) `{a, b, c, d, tx, ty}` or a 3-D one (CATransform3D) `{m = {16 numbers}}`,
---row-major. `"identity"` is accepted too.
---@class (exact) segue.Transform
---@field a? number
---@field b? number
---@field c? number
---@field d? number
---@field tx? number
---@field ty? number
---@field m? number[]

---A view proxy. Properties read and write the view's model values; setting one inside `segue.animate` animates it.
---@class (exact) segue.View
---@field frame segue.Rect
---@field bounds segue.Rect
---@field center segue.Point
---@field alpha number clamped to 0…1
---@field transform segue.Transform|"identity"
---@field hidden boolean
---@field color segue.Color
---@field corner_radius number ≥ 0
---@field z number drawing order among siblings
---@field anchor_point segue.Point unit coordinates, default {x=0.5, y=0.5}
---@field position segue.Point the same point as center
---@field sublayer_transform segue.Transform|"identity" applied to the subviews, about the anchor point
---@field double_sided boolean false: the back is not drawn
---@field border_width number ≥ 0
---@field border_color segue.Color
---@field shadow_color segue.Color
---@field shadow_opacity number in 0…1
---@field shadow_radius number ≥ 0
---@field shadow_offset segue.Size
---@field clips_to_bounds boolean subviews clipped to the bounds (masksToBounds)
---@field colors segue.Color[] gradient views: the gradient's colours, at least one
---@field locations number[]|nil gradient views: each colour's stop, ascending in 0…1; nil = evenly spaced
---@field start_point segue.Point gradient views: unit coordinates, default {x=0.5, y=0}
---@field end_point segue.Point gradient views: unit coordinates, default {x=0.5, y=1}
---@field type "axial"|"radial"|"conic" gradient views: "axial", "radial" or "conic"
---@field mask segue.View? a view with no superview whose alpha masks this one (CALayer.mask); nil removes it
---@field id string read-only
---@field superview segue.View? read-only
---@field subviews segue.View[] read-only
---@field add fun(self: segue.View, view: segue.View) adds a subview on top
---@field insert fun(self: segue.View, view: segue.View, index: integer) inserts a subview at a 1-based index
---@field remove fun(self: segue.View) removes it from its superview
---@field bring_to_front fun(self: segue.View)
---@field snapshot fun(self: segue.View, rect?: segue.Rect, options?: {after_updates?: boolean, cap_insets?: {top: number, left: number, bottom: number, right: number}}): segue.View a new view that looks like this one now (or its rect, sized to it)
---@field add_animation fun(self: segue.View, key: string, spec: segue.LayerAnimation, completion?: fun(finished: boolean)) CALayer.add(_:forKey:); the model value is not changed
---@field remove_animation fun(self: segue.View, key: string): boolean CALayer.removeAnimation(forKey:)
---@field animation_keys fun(self: segue.View): string[] CALayer.animationKeys(), in the order added

---An explicit layer animation (CABasicAnimation, CAKeyframeAnimation, CASpringAnimation); docs/PLUGIN_API.md lists the key paths.
---@class (exact) segue.LayerAnimation
---@field key_path string `opacity`, `position.x`, `transform.rotation.z`, `bounds.size.width`, `cornerRadius`, … or segued's names
---@field from? any a value of the key path
---@field to? any
---@field by? any
---@field values? any[] at most 1 000
---@field key_times? number[] 0…1, non-decreasing, as many as values
---@field timing_functions? segue.Curve|segue.Curve[] one per segment, or one for all; default linear
---@field calculation_mode? segue.CalculationMode default linear
---@field duration number seconds ≥ 0
---@field begin_time? number seconds from now; default 0
---@field repeat_count? number
---@field autoreverses? boolean
---@field fill_mode? "removed"|"forwards"|"backwards"|"both" default removed
---@field removed_on_completion? boolean default true
---@field additive? boolean
---@field spring? segue.Spring CASpringAnimation's mass, stiffness, damping, velocity; runs for `duration`

---@alias segue.CalculationMode "linear"|"discrete"|"paced"|"cubic"|"cubic_paced"

---@class (exact) segue.ViewController
---@field id string
---@field title? string
---@field index? integer 0-based, nil when not indexed
---@field view segue.View

---@class (exact) segue.InteractionInfo
---@field cancelled boolean
---@field completion_velocity number

---The coordinator context (UIViewControllerTransitionCoordinatorContext): locked, read-only, read live.
---@class (exact) segue.CoordinatorContext
---@field percent_complete number
---@field cancelled boolean
---@field interactive boolean
---@field initially_interactive boolean
---@field interruptible boolean true when an interruptible animator drives the transition
---@field completion_curve segue.Curve the last finish's or cancel's curve (ease_in_out before)
---@field completion_velocity number the last completion speed (1 before)
---@field target_transform segue.Transform identity
---@field animated boolean
---@field duration number

---The transition coordinator.
---@class (exact) segue.Coordinator
---@field alongside fun(self: segue.Coordinator, animations: fun(cctx: segue.CoordinatorContext), completion?: fun(cctx: segue.CoordinatorContext)) animates in step with the transition
---@field alongside_in fun(self: segue.Coordinator, view: segue.View, animations: fun(cctx: segue.CoordinatorContext), completion?: fun(cctx: segue.CoordinatorContext)) animateAlongsideTransition(in:)
---@field on_interaction_change fun(self: segue.Coordinator, fn: fun(info: segue.InteractionInfo)) called once when an interactive transition's interaction ends

---The transition context (UIViewControllerContextTransitioning). Read-only.
---@class (exact) segue.Context
---@field id string the transition's id
---@field container segue.View the container view, where the transition happens
---@field kind segue.TransitionKind
---@field from_index? integer
---@field to_index? integer
---@field direction? segue.Direction
---@field duration number what duration(ctx) returned
---@field animated boolean
---@field interactive boolean
---@field cancelled boolean transitionWasCancelled
---@field presentation_style? segue.PresentationStyle
---@field coordinator segue.Coordinator
---@field info? table the request's info: a read-only copy
---@field target_transform segue.Transform targetTransform: identity unless a size transition rotates
---@field view fun(self: segue.Context, key: "from"|"to"): segue.View? nil where the animator must not touch that view
---@field vc fun(self: segue.Context, key: "from"|"to"): segue.ViewController
---@field initial_frame fun(self: segue.Context, key_or_vc: "from"|"to"|segue.ViewController): segue.Rect
---@field final_frame fun(self: segue.Context, key_or_vc: "from"|"to"|segue.ViewController): segue.Rect
---@field complete fun(self: segue.Context, did_complete: boolean) completeTransition: exactly once
---@field update fun(self: segue.Context, percent: number)
---@field finish fun(self: segue.Context)
---@field cancel fun(self: segue.Context)
---@field pause fun(self: segue.Context)

---A gesture sample from `gesture.pan`, `gesture.pinch` or `gesture.rotate`.
---@class (exact) segue.Gesture
---@field phase segue.GesturePhase
---@field kind "pan"|"pinch"|"rotate"
---@field translation? segue.Point a pan's, in points
---@field velocity segue.Point|number a pan's in points per second; a pinch's scale per second; a rotation's radians per second
---@field scale? number a pinch's (> 0)
---@field rotation? number a rotation's, in radians
---@field location segue.Point in the window

---What `gesture_began` sees of the scene.
---@class (exact) segue.SceneInfo
---@field root? string
---@field containers table<string, {kind: string, children: string[], selected?: integer, stack?: string[]}>
---@field presented table<string, string> presenting id → presented id

---What `gesture_began` starts.
---@class (exact) segue.GestureOperation
---@field method "container.select"|"nav.push"|"nav.pop"|"nav.pop_to_root"|"nav.set"|"modal.present"|"modal.dismiss"
---@field params? table

---An interactive transition as an interaction plugin sees it. Its functions are called with a dot: `tr.update(p)`.
---@class (exact) segue.InteractiveTransition
---@field percent number
---@field duration number
---@field kind segue.TransitionKind
---@field container segue.View
---@field state table kept for this transition
---@field update fun(percent: number)
---@field finish fun()
---@field cancel fun()

---What a transitioning delegate is asked about.
---@class (exact) segue.Operation
---@field kind segue.TransitionKind
---@field container string
---@field from string
---@field to string
---@field from_index? integer
---@field to_index? integer
---@field direction? segue.Direction

---The presentation controller as a presentation plugin sees it.
---@class (exact) segue.PresentationController
---@field container segue.View the transition container view
---@field presented segue.ViewController
---@field presenting segue.ViewController
---@field presented_view segue.View
---@field coordinator? segue.Coordinator nil outside a transition
---@field state table kept for the whole presentation

---UIKit's damping ratio and initial velocity, or CASpringAnimation's mass, stiffness, damping and velocity.
---@class (exact) segue.Spring
---@field damping? number
---@field velocity? number
---@field mass? number
---@field stiffness? number

---@class (exact) segue.AnimationOptions
---@field duration? number seconds; default 0.2
---@field delay? number seconds
---@field curve? segue.Curve default ease_in_out (for keyframes too, over the whole block); ignored with a spring
---@field calculation_mode? segue.CalculationMode keyframes only; default linear
---@field spring? segue.Spring|"system" "system": UIKit's system curve, 0.5 s whatever duration says
---@field repeat_count? number
---@field autoreverse? boolean

---@class (exact) segue.ViewTransitionOptions
---@field duration? number
---@field options segue.ViewTransitionOption

---@class (exact) segue.AnimatorDescription
---@field name? string unique across the folder; default the file's base name
---@field version? string
---@field api? integer default 1
---@field kinds? segue.TransitionKind[] the kinds it is written for (plugins.check runs only those)
---@field duration number|fun(ctx: segue.Context): number transitionDuration(using:)
---@field animate? fun(ctx: segue.Context) animateTransition(using:) (may be left out with interruptible_animator)
---@field ended? fun(completed: boolean) animationEnded(_:)
---@field interruptible_animator? fun(ctx: segue.Context): segue.PropertyAnimator interruptibleAnimator(using:): asked once per transition

---@class (exact) segue.InteractionDescription
---@field name? string
---@field version? string
---@field api? integer
---@field kinds? segue.TransitionKind[] the kinds it is written for (plugins.check drives only those with its gesture scripts)
---@field began? fun(tr: segue.InteractiveTransition, g: segue.Gesture)
---@field changed fun(tr: segue.InteractiveTransition, g: segue.Gesture)
---@field ended fun(tr: segue.InteractiveTransition, g: segue.Gesture)
---@field completion_speed? fun(tr: segue.InteractiveTransition): number
---@field completion_curve? fun(tr: segue.InteractiveTransition): segue.Curve
---@field gesture_began? fun(g: segue.Gesture, scene_info: segue.SceneInfo): segue.GestureOperation? what a gesture with no transition starts; nil refuses
---@field wants_interactive_start? boolean default true
---@field start? fun(ctx: segue.Context) a fully custom interaction: drives the transition with ctx:update/finish/cancel

---@class (exact) segue.DelegateDescription
---@field name? string
---@field version? string
---@field api? integer
---@field animator_for fun(op: segue.Operation): string?
---@field interaction_for? fun(op: segue.Operation, animator: string): string?

---@class (exact) segue.PresentationDescription
---@field name? string
---@field version? string
---@field api? integer
---@field frame_of_presented_view fun(pc: segue.PresentationController): segue.Rect
---@field will_begin? fun(pc: segue.PresentationController)
---@field did_end? fun(pc: segue.PresentationController, completed: boolean)
---@field dismissal_will_begin? fun(pc: segue.PresentationController)
---@field dismissal_did_end? fun(pc: segue.PresentationController, completed: boolean)
---@field layout? fun(pc: segue.PresentationController)
---@field removes_presenter_view? boolean
---@field adaptive_style? fun(pc: segue.PresentationController, traits: {horizontal: "compact"|"regular", vertical: "compact"|"regular"}): string?
---@field will_transition_to_size? fun(pc: segue.PresentationController, size: {w: number, h: number})

---@class segue.Plugin

---The plugin API.
---@class segue
segue = {}

---The API version the daemon speaks.
segue.api = 1

---An animation controller (UIViewControllerAnimatedTransitioning).
---@param description segue.AnimatorDescription
---@return segue.Plugin
function segue.animator(description) end

---An interaction controller, percent driven (UIPercentDrivenInteractiveTransition).
---@param description segue.InteractionDescription
---@return segue.Plugin
function segue.interaction(description) end

---A transitioning delegate: picks animators (and interactions) for a container.
---@param description segue.DelegateDescription
---@return segue.Plugin
function segue.delegate(description) end

---A presentation controller (UIPresentationController).
---@param description segue.PresentationDescription
---@return segue.Plugin
function segue.presentation(description) end

---@param x? number
---@param y? number
---@param w? number
---@param h? number
---@return segue.Rect
function segue.rect(x, y, w, h) end

---@param rect segue.Rect
---@param dx? number
---@param dy? number
---@return segue.Rect
function segue.offset(rect, dx, dy) end

---@param rect segue.Rect
---@param top number
---@param left number
---@param bottom number
---@param right number
---@return segue.Rect
function segue.inset(rect, top, left, bottom, right) end

---A new view (chrome, dimming), in no superview until added.
---@param opts? {frame?: segue.Rect, bounds?: segue.Rect, center?: segue.Point, alpha?: number, transform?: segue.Transform, hidden?: boolean, color?: segue.Color, corner_radius?: number, z?: number, anchor_point?: segue.Point, position?: segue.Point, sublayer_transform?: segue.Transform, double_sided?: boolean}
---@return segue.View
function segue.view(opts) end

---A new view drawn by a CAGradientLayer (in no superview until added): `colors` required; `colors`, `locations`,
---`start_point` and `end_point` animatable (key paths `colors`, `locations`, `startPoint`, `endPoint`); its colour is
---clear unless given. Takes `segue.view`'s fields too.
---@param opts {colors: segue.Color[], locations?: number[], start_point?: segue.Point, end_point?: segue.Point, type?: "axial"|"radial"|"conic", frame?: segue.Rect, color?: segue.Color, alpha?: number, corner_radius?: number}
---@return segue.View
function segue.gradient_view(opts) end

---UIView.animate: every property set inside `animations` animates from its presentation value to the new value.
---@param opts segue.AnimationOptions
---@param animations fun()
---@param completion? fun(finished: boolean)
function segue.animate(opts, animations, completion) end

---UIView.animateKeyframes: `add(rel_start, rel_duration, fn)` animates what `fn` sets over that part of the block.
---@param opts segue.AnimationOptions
---@param keyframes fun(add: fun(rel_start: number, rel_duration: number, fn: fun()))
---@param completion? fun(finished: boolean)
function segue.keyframes(opts, keyframes, completion) end

---UIView.transition(from:to:): `to_view` takes `from_view`'s place in its superview.
---@param from_view segue.View
---@param to_view segue.View
---@param opts segue.ViewTransitionOptions
---@param completion? fun(finished: boolean)
function segue.transition(from_view, to_view, opts, completion) end

---A property animator (UIViewPropertyAnimator). Methods are called with a colon.
---@class (exact) segue.PropertyAnimator
---@field state "inactive"|"active"|"stopped" read-only
---@field running boolean read-only
---@field reversed boolean
---@field fraction_complete number 0…1; writable while paused
---@field scrubs_linearly boolean default true
---@field pauses_on_completion boolean
---@field interruptible boolean writable while inactive
---@field duration number read-only
---@field add_animations fun(self: segue.PropertyAnimator, fn: fun(), delay_factor?: number)
---@field add_completion fun(self: segue.PropertyAnimator, fn: fun(position: "end"|"start"|"current"))
---@field start fun(self: segue.PropertyAnimator, after?: number)
---@field pause fun(self: segue.PropertyAnimator)
---@field continue fun(self: segue.PropertyAnimator, timing?: {curve?: segue.Curve, spring?: segue.Spring|"system", duration?: number}, duration_factor?: number)
---@field stop fun(self: segue.PropertyAnimator, without_finishing: boolean)
---@field finish fun(self: segue.PropertyAnimator, at: "end"|"start"|"current")

---UIViewPropertyAnimator(duration:timingParameters:).
---@param opts {duration: number, curve?: segue.Curve, spring?: segue.Spring|"system"}
---@return segue.PropertyAnimator
function segue.property_animator(opts) end

---Runs `fn` after a delay on the scene's clock.
---@param seconds number
---@param fn fun()
function segue.after(seconds, fn) end

---CASpringAnimation.settlingDuration: seconds until the spring is at rest, whatever an animation's duration.
---@param spring segue.Spring
---@return number
function segue.settling_duration(spring) end

---The scene's clock, in seconds.
---@return number
function segue.now() end

---A `log` event and a daemon log line: the arguments through tostring, joined by spaces.
---@param ... any
function segue.log(...) end

---Transforms (CGAffineTransform / CATransform3D makers).
---@class segue.transform
segue.transform = {}

---@type segue.Transform
segue.transform.identity = { a = 1, b = 0, c = 0, d = 1, tx = 0, ty = 0 }

---@param tx number
---@param ty number
---@return segue.Transform
function segue.transform.translate(tx, ty) end

---@param sx number
---@param sy? number default sx
---@return segue.Transform
function segue.transform.scale(sx, sy) end

---@param radians number
---@return segue.Transform
function segue.transform.rotate(radians) end

---`a` then `b`.
---@param a segue.Transform
---@param b segue.Transform
---@return segue.Transform
function segue.transform.concat(a, b) end

---2-D transforms only.
---@param t segue.Transform
---@return segue.Transform
function segue.transform.invert(t) end

---The perspective of a flip: m34 = -1/d.
---@param d number
---@return segue.Transform
function segue.transform.perspective(d) end

---CATransform3DMakeRotation.
---@param radians number
---@param x number
---@param y number
---@param z number
---@return segue.Transform
function segue.transform.rotate3d(radians, x, y, z) end
