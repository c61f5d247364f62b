/**
 * Internal: logging for the engine's loops. A loop that runs each second (the outbox relay, the
 * publisher declaring the task queue again) meets the same failure each pass while a database or
 * broker is away; {@code RecurringFailureLog} says it once, then at most once a minute, and says when
 * it ended, so an outage is a few lines in a worker's log and not one a second.
 *
 * <p>Depends on nothing of the engine's; any package may use it.
 */
package dev.cairn.engine.internal.logging;
