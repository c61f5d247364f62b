package dev.cairn.cli.commands.token;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import dev.cairn.cli.client.CliException;
import dev.cairn.cli.client.ExitCodes;
import dev.cairn.cli.local.ServerJar;
import dev.cairn.cli.local.ServerSettings;
import dev.cairn.cli.options.Session;

/**
 * {@code cairn token create --role admin --local}: the server jar's one-shot mode
 * ({@code --cairn.local-admin-token=NAME}) makes an admin token in the database of the data directory's
 * settings, with no token: what an operator on the server's host runs when every admin token is revoked,
 * expired or lost. The database is the one of the settings given, else a running embedded server's (which
 * it publishes in the data directory), else the one {@code cairn server start} kept, else the embedded one.
 */
final class LocalAdminTokenLauncher {

    private LocalAdminTokenLauncher() {}

    /** Makes the token and returns its secret; the server jar's notes go to standard error. */
    static String make(Session session, Path dataDir, String name, List<String> extra) {
        List<String> settings = new ArrayList<>(ServerSettings.saved(dataDir).stream()
                .filter(s -> !s.startsWith("#"))
                .toList());
        if (ServerSettings.embedded(dataDir)) {
            settings = ServerSettings.overriding(
                    settings, ServerSettings.published(dataDir).orElse(List.of()));
        }
        settings = ServerSettings.overriding(settings, ServerSettings.parse(extra, "cairn token create --local"));
        List<String> args = new ArrayList<>();
        args.add("--cairn.data-dir=" + dataDir);
        args.add("--cairn.local-admin-token=" + name);
        args.addAll(settings);
        List<String> command =
                ServerJar.find(session.env()).command(session.env(), args, false, session.output()::note);
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .redirectInput(ProcessBuilder.Redirect.INHERIT);
        builder.environment().clear();
        builder.environment().putAll(ServerSettings.environment(session.env()));
        try {
            Process process = builder.start();
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            int exit = process.waitFor();
            // the secret is the line the jar prints alone; anything else on its output is a log line
            String secret = out.lines()
                    .map(String::strip)
                    .filter(l -> l.startsWith("cairn_"))
                    .reduce((a, b) -> b)
                    .orElse(null);
            if (exit != 0 || secret == null) {
                throw new CliException(
                        ExitCodes.FAILED,
                        "the server jar made no admin token for " + dataDir + " (exit " + exit + "; it said why above)",
                        null);
            }
            return secret;
        } catch (IOException e) {
            throw new CliException(ExitCodes.FAILED, "cannot run the server jar: " + e.getMessage(), null, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CliException(ExitCodes.INTERRUPTED, "interrupted", null, e);
        }
    }
}
