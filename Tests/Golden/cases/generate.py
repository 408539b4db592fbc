#!/usr/bin/env python3
# Writes the plugin cases of the golden test (Tests/Golden/cases/*.json, the scenario format) for the bundled
# plugins: for each, the kinds it declares (select both ways, push, pop, set; present/dismiss with its
# presentation style) and interactive finish at 0.7 and cancel at 0.3. Run it, then renew the record.
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
ADV = {"call": "clock.advance", "params": {"ms": 2000}}
def step(call, note=None, capture=None, **params):
    s = {"call": call}
    if params: s["params"] = params
    if capture: s["capture"] = {capture: "transition"}
    if note: s["note"] = note
    return s
def interactive(start, var, percent, end):
    # start: a step dict that starts an interactive transition
    start = dict(start); start["capture"] = {var: "transition"}
    return [start,
            step("transition.update", transition="${%s}" % var, percent=percent),
            step("scene.tree", presentation=True),
            step(f"transition.{end}", transition="${%s}" % var),
            ADV,
            step("transition.get", transition="${%s}" % var)]
def done(var):
    return [ADV, step("transition.get", transition="${%s}" % var), step("scene.tree", presentation=True)]

def container_case(a):
    s = [step("vc.create", id="a"), step("vc.create", id="b"),
         step("container.create", id="c", kind="custom", children=["a", "b"]),
         step("scene.set_root", vc="c"),
         step("container.select", capture="s1", note="select forward", container="c", index=1, animator=a), *done("s1"),
         step("container.select", capture="s2", note="select backward", container="c", index=0, animator=a), *done("s2"),
         *interactive(step("container.select", note="select interactive finish at 0.7", container="c", index=1, animator=a, interactive=True), "s3", 0.7, "finish"),
         *interactive(step("container.select", note="select interactive cancel at 0.3", container="c", index=0, animator=a, interactive=True), "s4", 0.3, "cancel"),
         step("vc.create", id="n1"), step("vc.create", id="n2"), step("vc.create", id="n3"),
         step("container.create", id="nav", kind="navigation", root="n1"),
         step("scene.set_root", vc="nav"),
         step("nav.push", capture="p1", note="push", container="nav", vc="n2", animator=a), *done("p1"),
         step("nav.pop", capture="p2", note="pop", container="nav", animator=a), *done("p2"),
         *interactive(step("nav.push", note="push interactive finish at 0.7", container="nav", vc="n2", animator=a, interactive=True), "p3", 0.7, "finish"),
         *interactive(step("nav.pop", note="pop interactive cancel at 0.3", container="nav", animator=a, interactive=True), "p4", 0.3, "cancel"),
         step("nav.set", capture="p5", note="set", container="nav", vcs=["n1", "n2", "n3"], animator=a), *done("p5"),
         step("transition.list")]
    return s

def present_case(present, dismiss, style=None, presentation=None, dismiss_interaction=None):
    def pres(note, **kw):
        p = dict(presenting="home", presented="sheet", **kw)
        if style: p["style"] = style
        if presentation: p["presentation"] = presentation
        return step("modal.present", note=note, **p)
    def dism(note, **kw):
        return step("modal.dismiss", note=note, presented="sheet", **kw)
    s = [step("vc.create", id="home", color="#ffffff"), step("vc.create", id="sheet", color="#ff9500"),
         step("scene.set_root", vc="home")]
    pa = {"animator": present} if present else {"animated": False}
    da = {"animator": dismiss} if dismiss else {"animated": False}
    p = pres("present", **pa); p["capture"] = {"m1": "transition"}
    d = dism("dismiss", **da); d["capture"] = {"m2": "transition"}
    s += [p, *done("m1"), d, *done("m2")]
    if present:
        s += interactive(pres("present interactive finish at 0.7", animator=present, interactive=True), "m3", 0.7, "finish")
        s += [dism("dismiss, not animated", animated=False)]
        s += interactive(pres("present interactive cancel at 0.3", animator=present, interactive=True), "m4", 0.3, "cancel")
    if dismiss:
        if present:
            s += [pres("present, not animated", animated=False)]
        else:
            s += [pres("present, not animated", animated=False)]
        s += interactive(dism("dismiss interactive finish at 0.7", animator=dismiss, interactive=True), "m5", 0.7, "finish")
        s += [pres("present, not animated", animated=False)]
        s += interactive(dism("dismiss interactive cancel at 0.3", animator=dismiss, interactive=True), "m6", 0.3, "cancel")
        if dismiss_interaction:
            g = step("gesture.pan", note="gesture-driven dismissal, cancelled under half-way", phase="began",
                     translation={"x": 0, "y": 0},
                     start={"method": "modal.dismiss", "params": {"presented": "sheet", "animator": dismiss, "interactive": dismiss_interaction}})
            g["capture"] = {"g1": "transition"}
            s += [g, step("gesture.pan", transition="${g1}", phase="changed", translation={"x": 0, "y": 120}),
                  step("gesture.pan", transition="${g1}", phase="ended", translation={"x": 0, "y": 120}), *done("g1")]
            g = dict(g); g["note"] = "gesture-driven dismissal, finished past half-way"; g["capture"] = {"g2": "transition"}
            s += [g, step("gesture.pan", transition="${g2}", phase="changed", translation={"x": 0, "y": 280}),
                  step("gesture.pan", transition="${g2}", phase="ended", translation={"x": 0, "y": 280}), *done("g2")]
    s += [step("transition.list")]
    return s

def case(name, desc, steps, out):
    json.dump([{"name": name, "description": desc, "steps": steps}], open(os.path.join(HERE, f"{out}.json"), "w"), indent=1)

for a in ["cross-dissolve", "dt-slide", "flip", "objcio-animator"]:
    case(f"{a}: select both ways, push, pop, set, interactive finish and cancel", f"plugins/{a}.lua declares kinds select, push, pop, set.", container_case(a), a)
dl = [step("vc.create", id="a"), step("vc.create", id="b"),
      step("container.create", id="c", kind="custom", children=["a", "b"], delegate="dt-slide-delegate"),
      step("scene.set_root", vc="c"),
      step("container.select", capture="s1", note="forward through the delegate", container="c", index=1), *done("s1"),
      step("container.select", capture="s2", note="backward through the delegate", container="c", index=0), *done("s2"),
      *interactive(step("container.select", note="interactive finish through the delegate", container="c", index=1, interactive=True), "s3", 0.7, "finish"),
      step("transition.list")]
case("dt-slide-delegate: a container's delegate picks dt-slide", "plugins/dt-slide.lua's delegate.", dl, "dt-slide-delegate")
for st in ["fullScreen", "custom", "overFullScreen"]:
    case(f"bounce-present ({st}): present, interactive finish and cancel", "plugins/bounce-present.lua declares kinds present.",
         present_case("bounce-present", None, style=st), f"bounce-present-{st}")
for st in ["fullScreen", "custom"]:
    case(f"normal-dismiss ({st}): dismiss, interactive finish and cancel, swipe-up gestures", "plugins/normal-dismiss.lua declares kinds dismiss; swipe-up is its interaction.",
         present_case(None, "normal-dismiss", style=st, dismiss_interaction="swipe-up"), f"normal-dismiss-{st}")
case("overlay (overFullScreen): present and dismiss, interactive finish and cancel", "plugins/overlay.lua: overlay-present and overlay-dismiss, style overFullScreen.",
     present_case("overlay-present", "overlay-dismiss", style="overFullScreen"), "overlay")
case("side-panel: present and dismiss through the presentation controller, interactive finish and cancel", "plugins/side-panel.lua: presentation side-panel, animator side-panel-slide.",
     present_case("side-panel-slide", "side-panel-slide", presentation="side-panel"), "side-panel")
