package dev.cairn.engine.transport;

/** How a command is named in messages. */
final class Commands {

    private Commands() {}

    /** The command for messages: quoted, on one line, and cut short if long. */
    static String describe(String command) {
        String oneLine = command.replace('\n', ' ');
        return "command '" + (oneLine.length() > 200 ? oneLine.substring(0, 200) + "..." : oneLine) + "'";
    }
}
