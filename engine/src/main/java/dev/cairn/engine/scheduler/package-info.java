/**
 * Batch systems driven through their command-line tools: the
 * {@link dev.cairn.engine.scheduler.Scheduler} interface with {@code DirectScheduler},
 * {@code SlurmScheduler} and {@code PbsScheduler}, the job template a submit script is written
 * from, and the job states the engine acts on.
 *
 * <p>It depends on {@code engine.transport} (commands run on the computer) and the error families,
 * and knows nothing of processes or the runtime (an architecture test holds it so). The
 * calculation-job machinery submits, polls and cancels jobs through it.
 */
package dev.cairn.engine.scheduler;
