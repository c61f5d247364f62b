/**
 * Pause, play and kill: {@link dev.cairn.engine.control.ProcessControl}, done by a user and
 * recorded in the process's report. Each action is written to the database under the process's row
 * lock, then signalled to the worker that may hold it; kill cascades to live children.
 *
 * <p>It builds on the internal state, calculation-job and broker packages, and shows none of their
 * types. The engine hands it out ({@code Engine.control()}) to whoever acts for a user.
 */
package dev.cairn.engine.control;
