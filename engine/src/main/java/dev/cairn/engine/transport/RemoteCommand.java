package dev.cairn.engine.transport;

import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A command as sent over an SSH exec channel. The remote login shell runs
 * {@code /bin/sh -c '<script>'}, and the script first writes its process id to stderr on a
 * marked line. Closing the channel does not stop a command that has no terminal, so on
 * timeout that id is what lets {@link #killTree(long)} stop it and everything it started; the
 * marked line is taken out of the stderr the caller sees.
 */
record RemoteCommand(String command, String workdir) {

    private static final String MARK = "cairn-exec-pid:";
    private static final Pattern MARKED = Pattern.compile("\\A" + MARK + "(\\d+)\\n");

    /** The text for the exec channel. The login shell only needs to understand single quotes. */
    String text() {
        String cd = workdir == null ? "" : "cd -- " + PosixPaths.quote(workdir) + " || exit 1; ";
        return "/bin/sh -c " + PosixPaths.quote("echo " + MARK + "$$ >&2; " + cd + command);
    }

    /** The id of the remote {@code sh}, once its first line of stderr has arrived. */
    static long pid(byte[] stderr) {
        Matcher m = MARKED.matcher(new String(stderr, 0, Math.min(stderr.length, 64), StandardCharsets.UTF_8));
        return m.find() ? Long.parseLong(m.group(1)) : -1;
    }

    /** What the command wrote to stderr, without the marked line. */
    static String stderr(byte[] stderr) {
        String text = new String(stderr, StandardCharsets.UTF_8);
        Matcher m = MARKED.matcher(text);
        return m.find() ? text.substring(m.end()) : text;
    }

    /**
     * A script that kills {@code pid} and its descendants. Each process is stopped before its
     * children are listed, so it cannot start new ones meanwhile, and killed after them, while
     * they can still be found as its children. Needs {@code pgrep} (procps on Linux, standard
     * on macOS and the BSDs); without it only {@code pid} itself is killed.
     */
    static String killTree(long pid) {
        String script =
                "t() { kill -STOP \"$1\" 2>/dev/null; for c in $(pgrep -P \"$1\" 2>/dev/null); do t \"$c\"; done; "
                        + "kill -KILL \"$1\" 2>/dev/null; }; t " + pid;
        return "/bin/sh -c " + PosixPaths.quote(script);
    }
}
