package dev.cairn.cli.output;

/** ANSI colours for a terminal that wants them; plain text otherwise. */
public record Style(boolean on) {

    public String header(String text) {
        return wrap("1", text);
    }

    public String good(String text) {
        return wrap("32", text);
    }

    public String bad(String text) {
        return wrap("31", text);
    }

    public String warn(String text) {
        return wrap("33", text);
    }

    public String dim(String text) {
        return wrap("2", text);
    }

    /** A process state or exit status in the colour of its meaning. */
    public String state(String state) {
        return switch (state) {
            case "finished", "ok", "up" -> good(state);
            case "excepted", "killed", "failed", "down" -> bad(state);
            case "paused", "waiting" -> warn(state);
            default -> state;
        };
    }

    private String wrap(String code, String text) {
        return on ? "\u001b[" + code + "m" + text + "\u001b[0m" : text;
    }
}
