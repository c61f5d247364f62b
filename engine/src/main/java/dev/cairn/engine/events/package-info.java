/**
 * What the engine broadcasts, as typed records: {@link dev.cairn.engine.events.StateChanged} for
 * watchers (subscribe with {@code Engine.subscribe} and an {@link dev.cairn.engine.events.EventFilter}),
 * and {@link dev.cairn.engine.events.ControlSignal} for workers; and the stored changes,
 * {@link dev.cairn.engine.events.EventLog}, from which a watcher replays what it missed.
 */
package dev.cairn.engine.events;
