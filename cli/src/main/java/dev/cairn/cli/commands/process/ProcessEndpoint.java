package dev.cairn.cli.commands.process;

import dev.cairn.cli.client.CliException;
import dev.cairn.cli.client.ExitCodes;

/** What the process commands share: how a process is named, where the server keeps them, waiting between polls. */
final class ProcessEndpoint {

    /** A process on the command line, named as every node is (NodeRef). */
    static final String REF =
            "The process: its PK (42), its uuid, or a unique prefix of the uuid (4 hex digits or more).";

    /** The processes' URL path on the server. */
    static final String PATH = "/api/v1/processes";

    private ProcessEndpoint() {}

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CliException(ExitCodes.INTERRUPTED, "interrupted", null, e);
        }
    }
}
