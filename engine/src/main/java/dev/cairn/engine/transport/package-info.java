/**
 * How the engine reaches a computer: the {@link dev.cairn.engine.transport.Transport} interface
 * (files in and out, commands run there) with two implementations, {@code LocalTransport} and
 * {@code SshTransport} (Apache MINA SSHD), SSH connections shared between uses, and {@code Backoff}
 * for failures that may go away. Every failure is a {@code TransportException} that says whether
 * trying again may help.
 *
 * <p>It depends on the JDK, MINA SSHD and the error families only, and knows nothing of schedulers,
 * processes or the runtime (an architecture test holds it so). Schedulers run their commands
 * through it, and the calculation-job machinery uploads, polls and retrieves through it.
 */
package dev.cairn.engine.transport;
