package dev.cairn.cli.options;

import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import dev.cairn.cli.client.CairnClient;
import dev.cairn.cli.config.Profiles;
import dev.cairn.cli.output.Output;
import dev.cairn.cli.output.Terminal;

/**
 * The options every command that talks to a server takes ({@code --profile}, {@code --url},
 * {@code --json}, {@code --verbose}, {@code --no-color}, {@code --timeout}), and what they make: the
 * client, the output. A mixin, so that the options go after the command as people type them
 * ({@code cairn process list --json}). The environment comes from {@link Environment}, which tests set.
 */
public final class Session {

    /** The field name every command gives this mixin: the error handler finds {@code --verbose} by it. */
    public static final String MIXIN = "session";

    @Spec(Spec.Target.MIXEE)
    private CommandSpec spec;

    @Option(
            names = "--profile",
            paramLabel = "NAME",
            description = "The profile to use (default: $CAIRN_PROFILE, else the one `cairn profile use` chose).")
    private String profile;

    @Option(
            names = "--url",
            paramLabel = "URL",
            description = "The server's URL, over the profile's (also $CAIRN_URL).")
    private String url;

    @Option(names = "--json", description = "Print JSON with stable field names instead of a table.")
    private boolean json;

    @Option(
            names = {"-v", "--verbose"},
            description = "On failure, print the stack trace too.")
    private boolean verbose;

    @Option(names = "--no-color", description = "No colour (also when $NO_COLOR is set or output is no terminal).")
    private boolean noColor;

    @Option(
            names = "--timeout",
            paramLabel = "SECONDS",
            defaultValue = "30",
            description = "How long to wait for each answer of the server (default: ${DEFAULT-VALUE}).")
    private int timeoutSeconds;

    private CairnClient client;
    private Output output;

    public CairnClient client() {
        if (client == null) {
            URI urlOption = url == null ? null : Profiles.parseUrl(url, "--url");
            client = new CairnClient(profiles().resolve(profile, urlOption), Duration.ofSeconds(timeoutSeconds));
        }
        return client;
    }

    public Output output() {
        if (output == null) {
            PrintWriter out = spec.commandLine().getOut();
            PrintWriter err = spec.commandLine().getErr();
            output = new Output(out, err, Terminal.detect(env(), noColor), json);
        }
        return output;
    }

    public Profiles profiles() {
        return Profiles.ofUser(env());
    }

    public Map<String, String> env() {
        return Environment.variables();
    }

    /** The current directory, as the environment gives it (tests give one of their own). */
    public Path workingDirectory() {
        return Environment.workingDirectory();
    }

    /** {@code --timeout}: how long to wait for an answer, or for what a command waits on. */
    public Duration timeout() {
        return Duration.ofSeconds(timeoutSeconds);
    }

    public boolean verbose() {
        return verbose;
    }

    public boolean json() {
        return json;
    }
}
