extension Scene {
    // MARK: Journal (undoing a failed animator call)

    /// Opens a journal: from here on every change to the scene is recorded until `closeJournal` or `restore`.
    func openJournal() -> SceneJournal {
        ledger.nextJournalEpoch += 1
        let journal = SceneJournal(
            epoch: ledger.nextJournalEpoch, nextViewSerial: tree.nextViewSerial, nextAnimationSerial: clock.nextAnimationSerial,
            lastGroupID: clock.nextGroupID, pendingCount: clock.pendingCompletions.count, nextTimerID: clock.nextTimerID)
        ledger.journals.append(journal)
        return journal
    }

    /// The call went well: its changes stay.
    func closeJournal(_ journal: SceneJournal) {
        ledger.journals.removeAll { $0 === journal }
    }

    /// Records `view` as it is now in the open journals that have not recorded it yet (call before changing it).
    @inline(__always)
    func touch(_ view: View?) {
        guard !ledger.journals.isEmpty, let view else { return }
        recordView(view)
    }

    private func recordView(_ view: View) {
        guard view.journalEpoch != ledger.journals[ledger.journals.count - 1].epoch else { return }
        view.journalEpoch = ledger.journals[ledger.journals.count - 1].epoch
        let state = SceneJournal.ViewState(view)
        for journal in ledger.journals { journal.views.append(state) }
    }

    /// Records a group's counts before they change, in the open journals that knew the group before their call.
    @inline(__always)
    func touch(_ group: AnimationGroup) {
        guard !ledger.journals.isEmpty, group.journalEpoch != ledger.journals[ledger.journals.count - 1].epoch else { return }
        group.journalEpoch = ledger.journals[ledger.journals.count - 1].epoch
        for journal in ledger.journals where group.id <= journal.lastGroupID {
            journal.groups.append((group, group.remaining, group.finished, group.done))
        }
    }

    /// An animation is about to be marked removed.
    @inline(__always)
    func noteStopped(_ animation: PropertyAnimation) {
        guard !ledger.journals.isEmpty, !animation.removed, !animation.held else { return }
        for journal in ledger.journals where animation.serial < journal.nextAnimationSerial { journal.stopped.append(animation) }
    }

    /// Numbers a new animation (`running` stays in this order) and records it in the open journals.
    func noteStarted(_ animation: PropertyAnimation) {
        animation.serial = clock.nextAnimationSerial
        clock.nextAnimationSerial += 1
        for journal in ledger.journals { journal.started.append(animation) }
    }

    /// Undoes everything recorded since `journal` opened (closing it): the views made since go, the views touched
    /// get their values and places back, the animations running before run again with their groups' counts, and
    /// the animations, completions, blocks and timers the call added are dropped. Every view that was in the
    /// scene is reported changed in the next frame.
    func restore(_ journal: SceneJournal) {
        closeJournal(journal)
        tree.structureVersion &+= 1
        tree.valueVersion &+= 1
        // Views made since the journal opened go away, each on its own: their parents are views of before, whose
        // subviews are restored below, or made since and going too; a view of before the call moved under a new
        // one is no subview to destroy, it goes back where it was.
        if tree.nextViewSerial > journal.nextViewSerial {
            for serial in journal.nextViewSerial..<tree.nextViewSerial {
                if let view = tree.viewsBySerial[serial] { discard(view) }
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
        for view in tree.viewsBySerial.values where view.serial < journal.nextViewSerial {
            if view.dirty == 0 { dirtyViews.append(view) }
            view.dirty |= ViewChanges.all.rawValue
        }
        // Animations: exactly the ones that ran before, in their order, with their groups' counts.
        for animation in journal.started where !animation.removed && !animation.held {
            clock.setRemoved(animation)
            animation.group.done = true
            animation.group.completion = nil
            if animation.view.animations[animation.property.rawValue] === animation {
                animation.view.animations[animation.property.rawValue] = nil
            }
        }
        for animation in journal.stopped {
            clock.setRemoved(animation, false)
            animation.view.animations[animation.property.rawValue] = animation
        }
        clock.running.removeAll { $0.removed }
        if !journal.stopped.isEmpty {
            let present = Set(clock.running.map { ObjectIdentifier($0) })
            let missing = journal.stopped.filter { !present.contains(ObjectIdentifier($0)) }
            if !missing.isEmpty {
                clock.running.append(contentsOf: missing)
                clock.running.sortByStart()
            }
        }
        if !journal.groups.isEmpty {
            let live = Set(clock.running.map { ObjectIdentifier($0.group) })
            for (group, remaining, finished, done) in journal.groups.reversed() where live.contains(ObjectIdentifier(group)) {
                group.remaining = remaining
                group.finished = finished
                group.done = done
            }
        }
        if clock.pendingCompletions.count > journal.pendingCount {
            clock.pendingCompletions.removeLast(clock.pendingCompletions.count - journal.pendingCount)
        }
        // Blocks opened by the failed call and never committed.
        clock.blockStack.removeAll()
        clock.timers.removeAll { $0.id > journal.nextTimerID }
    }

    /// Removes a view (and its subviews) from the scene for good.
    func destroyView(_ view: View) {
        for subview in view.subviews { destroyView(subview) }
        removeFromSuperview(view)
        discard(view)
        clock.running.removeAll { $0.removed }
    }

    /// Takes one view out of the scene (its animations marked removed, not yet dropped from `running`), leaving
    /// its place in the hierarchy to the caller.
    private func discard(_ view: View) {
        touch(view)
        view.superview = nil
        view.subviews = []
        for property in ViewProperty.allCases {
            if let animation = view.animations[property.rawValue] {
                touch(animation.group)
                noteStopped(animation)
                clock.setRemoved(animation)
                animation.group.remaining -= 1
                view.animations[property.rawValue] = nil
            }
        }
        view.isAlive = false
        tree.viewsByID[view.id] = nil
        tree.viewsBySerial[view.serial] = nil
    }
}

extension Scene {
    /// Removes a view a plugin made and no longer wants (for example when its options were invalid).
    public func destroyViewForPlugin(_ view: View) {
        guard view.owner == nil, view !== window else { return }
        destroyView(view)
    }
}
