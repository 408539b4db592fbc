extension Scene {
    // MARK: Journal (undoing a failed animator call)

    /// Opens a journal: from here on every change to the scene is recorded until `closeJournal` or `restore`.
    func openJournal() -> SceneJournal {
        nextJournalEpoch += 1
        let journal = SceneJournal(
            epoch: nextJournalEpoch, nextViewSerial: nextViewSerial, nextAnimationSerial: nextAnimationSerial,
            lastGroupID: nextGroupID, pendingCount: pendingCompletions.count, nextTimerID: nextTimerID)
        journals.append(journal)
        return journal
    }

    /// The call went well: its changes stay.
    func closeJournal(_ journal: SceneJournal) {
        journals.removeAll { $0 === journal }
    }

    /// Records `view` as it is now in the open journals that have not recorded it yet (call before changing it).
    @inline(__always)
    func touch(_ view: View?) {
        guard !journals.isEmpty, let view else { return }
        recordView(view)
    }

    private func recordView(_ view: View) {
        guard view.journalEpoch != journals[journals.count - 1].epoch else { return }
        view.journalEpoch = journals[journals.count - 1].epoch
        let state = SceneJournal.ViewState(view)
        for journal in journals { journal.views.append(state) }
    }

    /// Records a group's counts before they change, in the open journals that knew the group before their call.
    @inline(__always)
    func touch(_ group: AnimationGroup) {
        guard !journals.isEmpty, group.journalEpoch != journals[journals.count - 1].epoch else { return }
        group.journalEpoch = journals[journals.count - 1].epoch
        for journal in journals where group.id <= journal.lastGroupID {
            journal.groups.append((group, group.remaining, group.finished, group.done))
        }
    }

    /// An animation is about to be marked removed.
    @inline(__always)
    func noteStopped(_ animation: PropertyAnimation) {
        guard !journals.isEmpty, !animation.removed, !animation.held else { return }
        for journal in journals where animation.serial < journal.nextAnimationSerial { journal.stopped.append(animation) }
    }

    /// Numbers a new animation (`running` stays in this order) and records it in the open journals.
    func noteStarted(_ animation: PropertyAnimation) {
        animation.serial = nextAnimationSerial
        nextAnimationSerial += 1
        for journal in journals { journal.started.append(animation) }
    }

    /// Undoes everything recorded since `journal` opened (closing it): the views made since go, the views touched
    /// get their values and places back, the animations running before run again with their groups' counts, and
    /// the animations, completions, blocks and timers the call added are dropped. Every view that was in the
    /// scene is reported changed in the next frame.
    func restore(_ journal: SceneJournal) {
        closeJournal(journal)
        structureVersion &+= 1
        valueVersion &+= 1
        // Views made since the journal opened go away, each on its own: their parents are views of before, whose
        // subviews are restored below, or made since and going too; a view of before the call moved under a new
        // one is no subview to destroy, it goes back where it was.
        if nextViewSerial > journal.nextViewSerial {
            for serial in journal.nextViewSerial..<nextViewSerial {
                if let view = viewsBySerial[serial] { discard(view) }
            }
        }
        // Newest record first, so each view ends with the state of its first record.
        for state in journal.views.reversed() {
            let view = state.view
            view.model = state.model
            view.presentation = state.presentation
            view.superview = state.superview
            view.subviews = state.subviews
            view.hidden = state.hidden
            view.z = state.z
        }
        for view in viewsBySerial.values where view.serial < journal.nextViewSerial {
            if view.dirty == 0 { dirtyViews.append(view) }
            view.dirty |= 0xFF
        }
        // Animations: exactly the ones that ran before, in their order, with their groups' counts.
        for animation in journal.started where !animation.removed && !animation.held {
            setRemoved(animation)
            animation.group.done = true
            animation.group.completion = nil
            if animation.view.animations[animation.property.rawValue] === animation {
                animation.view.animations[animation.property.rawValue] = nil
            }
        }
        for animation in journal.stopped {
            setRemoved(animation, false)
            animation.view.animations[animation.property.rawValue] = animation
        }
        running.removeAll { $0.removed }
        if !journal.stopped.isEmpty {
            let present = Set(running.map { ObjectIdentifier($0) })
            let missing = journal.stopped.filter { !present.contains(ObjectIdentifier($0)) }
            if !missing.isEmpty {
                running.append(contentsOf: missing)
                running.sortByStart()
            }
        }
        if !journal.groups.isEmpty {
            let live = Set(running.map { ObjectIdentifier($0.group) })
            for (group, remaining, finished, done) in journal.groups.reversed() where live.contains(ObjectIdentifier(group)) {
                group.remaining = remaining
                group.finished = finished
                group.done = done
            }
        }
        if pendingCompletions.count > journal.pendingCount {
            pendingCompletions.removeLast(pendingCompletions.count - journal.pendingCount)
        }
        // Blocks opened by the failed call and never committed.
        blockStack.removeAll()
        timers.removeAll { $0.id > journal.nextTimerID }
    }

    /// Removes a view (and its subviews) from the scene for good.
    func destroyView(_ view: View) {
        for subview in view.subviews { destroyView(subview) }
        removeFromSuperview(view)
        discard(view)
        running.removeAll { $0.removed }
    }

    /// Takes one view out of the scene (its animations marked removed, not yet dropped from `running`), leaving
    /// its place in the hierarchy to the caller.
    private func discard(_ view: View) {
        touch(view)
        view.superview = nil
        view.subviews = []
        for property in AnimatableProperty.allCases {
            if let animation = view.animations[property.rawValue] {
                touch(animation.group)
                noteStopped(animation)
                setRemoved(animation)
                animation.group.remaining -= 1
                view.animations[property.rawValue] = nil
            }
        }
        view.isAlive = false
        viewsByID[view.id] = nil
        viewsBySerial[view.serial] = nil
    }
}

extension Scene {
    /// Removes a view a plugin made and no longer wants (for example when its options were invalid).
    public func destroyViewForPlugin(_ view: View) {
        guard view.owner == nil, view !== window else { return }
        destroyView(view)
    }
}
