/**
 * Stored computers as the engine reaches them, for a server or a command line to set them up and
 * try them: which transport and scheduler types exist and whether a computer's settings are ones
 * the engine can run jobs with ({@link dev.cairn.engine.computers.ComputerTypes}), and a test of a
 * computer's transport, work directory and scheduler as {@code verdi computer test} runs it
 * ({@link dev.cairn.engine.computers.ComputerCheck}, through
 * {@link dev.cairn.engine.Engine#testComputer}).
 *
 * <p>It builds on the transports, the schedulers and the engine's internal access to computers,
 * whose connection limits and kept connections a test shares with the jobs.
 */
package dev.cairn.engine.computers;
