#!/usr/bin/env bash
# The README's quick start, step by step. Needs a running segued (scripts/start in another terminal).
# The integration tests run this very file against a daemon of their own.
set -euo pipefail
ctl() { "${SEGUECTL:-.build/release/seguectl}" "$@"; }  # seguectl reads SEGUED_SOCKET if you set it

# Start clean if you ran this before (an error here just means there was nothing to remove).
ctl call scene.destroy '{"scene":"quickstart"}' 2>/dev/null || true

# A manual-clock scene: time moves only when we say so, so every run gives the same frames.
ctl call scene.create '{"id":"quickstart","size":{"w":320,"h":480},"clock":"manual"}'

# Two view controllers in a custom container (objc.io's ContainerViewController), on screen.
ctl call vc.create '{"scene":"quickstart","id":"red","title":"Red","color":"#ff3b30"}'
ctl call vc.create '{"scene":"quickstart","id":"blue","title":"Blue","color":"#007aff"}'
ctl call container.create '{"scene":"quickstart","id":"tabs","kind":"custom","children":["red","blue"]}'
ctl call scene.set_root '{"scene":"quickstart","vc":"tabs"}'

# Select the second child with the dt-slide Lua animator: the will-calls arrive, the transition begins.
ctl call --events container.select '{"scene":"quickstart","container":"tabs","index":1,"animator":"dt-slide"}'

# Advance the clock past the animator's 0.28 s: the did-calls arrive and the transition completes.
ctl call --events clock.advance '{"scene":"quickstart","ms":300}'

# The transition as the daemon recorded it, and who is selected now.
ctl call transition.get '{"scene":"quickstart","transition":"t-1"}'
ctl call container.get '{"scene":"quickstart","container":"tabs"}'
