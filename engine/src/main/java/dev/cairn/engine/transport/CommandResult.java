package dev.cairn.engine.transport;

/** What a command run through a transport returned. */
public record CommandResult(int exitCode, String stdout, String stderr) {

    public boolean ok() {
        return exitCode == 0;
    }
}
