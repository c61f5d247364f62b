package dev.cairn.cli.commands.profile;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import dev.cairn.cli.client.CairnClient;
import dev.cairn.cli.client.CliException;
import dev.cairn.cli.client.JsonTrees;
import dev.cairn.cli.client.Target;
import dev.cairn.cli.config.Profile;
import dev.cairn.cli.config.Profiles;
import dev.cairn.cli.options.Session;
import dev.cairn.cli.output.Output;
import dev.cairn.cli.output.TextTable;

/** {@code cairn profile add|list|use|show|remove}: the servers this user talks to, each with its token. */
@Command(
        name = "profile",
        description = "The servers you talk to: their URL and your token for each.",
        subcommands = {
            ProfileCommand.Add.class,
            ProfileCommand.ListProfiles.class,
            ProfileCommand.Use.class,
            ProfileCommand.Show.class,
            ProfileCommand.Remove.class
        })
public final class ProfileCommand {

    @Command(
            name = "add",
            description = {
                "Add a profile (or replace one) and check that the server answers with the token.",
                "The first profile added is the one in use."
            })
    static final class Add implements Runnable {

        @Mixin
        Session session;

        @Parameters(paramLabel = "NAME", description = "The profile's name.")
        String name;

        @Option(
                names = "--server",
                paramLabel = "URL",
                required = true,
                description = "The server's URL, e.g. https://cairn.example.org or http://127.0.0.1:8080.")
        String server;

        @ArgGroup(exclusive = true)
        TokenSource token;

        @Option(names = "--no-check", description = "Do not ask the server whether the URL and token work.")
        boolean noCheck;

        static final class TokenSource {
            @Option(
                    names = "--token-file",
                    paramLabel = "FILE",
                    description = "A file holding the token (it is copied; the copy only you can read).")
            Path file;

            @Option(names = "--token-stdin", description = "Read the token from standard input.")
            boolean stdin;
        }

        @Override
        public void run() {
            URI url = Profiles.parseUrl(server, "--server");
            String secret = token == null ? null : token.stdin ? readStdin() : readFile(token.file);
            if (!noCheck) {
                check(new Target(url, secret, "profile '" + name + "'"));
            }
            Profile profile = session.profiles().add(name, url, secret);
            Output out = session.output();
            if (out.json()) {
                out.print(json(profile, session.profiles().current()));
            } else {
                out.line("profile '" + name + "': " + url + (profile.hasToken() ? ", with a token" : ", no token")
                        + (session.profiles().current().filter(name::equals).isPresent() ? " (in use)" : ""));
            }
        }

        private void check(Target target) {
            new CairnClient(target, Duration.ofSeconds(10)).get("/api/v1/statistics?days=1");
        }

        private static String readFile(Path file) {
            try {
                return nonEmpty(Files.readString(file, StandardCharsets.UTF_8), file.toString());
            } catch (IOException e) {
                throw CliException.usage("--token-file: cannot read " + file + ": " + e.getMessage());
            }
        }

        private static String readStdin() {
            try (InputStream in = System.in) {
                return nonEmpty(new String(in.readAllBytes(), StandardCharsets.UTF_8), "standard input");
            } catch (IOException e) {
                throw CliException.usage("--token-stdin: " + e.getMessage());
            }
        }

        private static String nonEmpty(String token, String from) {
            if (token.isBlank()) {
                throw CliException.usage("no token in " + from);
            }
            return token.strip();
        }
    }

    @Command(name = "list", description = "List the profiles; '*' marks the one in use.")
    static final class ListProfiles implements Runnable {

        @Mixin
        Session session;

        @Override
        public void run() {
            Profiles profiles = session.profiles();
            List<Profile> all = profiles.list();
            Optional<String> current = profiles.current();
            Output out = session.output();
            if (out.json()) {
                ArrayNode array = JsonTrees.MAPPER.createArrayNode();
                all.forEach(p -> array.add(json(p, current)));
                out.print(array);
                return;
            }
            if (all.isEmpty()) {
                out.note("no profiles; commands talk to " + profiles.localUrl() + " (the local server)."
                        + " Add one: cairn profile add NAME --server URL --token-file FILE");
                return;
            }
            TextTable table = TextTable.of("", "NAME", "URL", "TOKEN");
            for (Profile p : all) {
                table.row(
                        current.filter(p.name()::equals).isPresent() ? "*" : "",
                        p.name(),
                        p.url(),
                        p.hasToken() ? "yes" : "no");
            }
            out.print(table);
        }
    }

    @Command(name = "use", description = "Use this profile from now on (CAIRN_PROFILE and --profile still win).")
    static final class Use implements Runnable {

        @Mixin
        Session session;

        @Parameters(paramLabel = "NAME")
        String name;

        @Override
        public void run() {
            session.profiles().use(name);
            session.output().line("using profile '" + name + "'");
        }
    }

    @Command(name = "show", description = "Show a profile (default: the one in use) and what a command would use.")
    static final class Show implements Runnable {

        @Mixin
        Session session;

        @Parameters(paramLabel = "NAME", arity = "0..1")
        String name;

        @Override
        public void run() {
            Profiles profiles = session.profiles();
            String shown = name != null ? name : profiles.current().orElse(null);
            Target target = profiles.resolve(shown, null);
            Output out = session.output();
            ObjectNode json = JsonTrees.object();
            json.put("name", shown);
            json.put("url", target.url().toString());
            json.put("token", target.token() != null);
            json.put("from", target.from());
            json.put(
                    "current",
                    shown != null && profiles.current().filter(shown::equals).isPresent());
            json.put("configDirectory", profiles.dir().toString());
            if (out.json()) {
                out.print(json);
                return;
            }
            out.line("profile:   " + (shown == null ? "(none)" : shown));
            out.line("url:       " + target.url());
            out.line("token:     " + (target.token() != null ? "yes" : "no"));
            out.line("from:      " + target.from());
            out.line("config:    " + profiles.dir());
        }
    }

    @Command(name = "remove", description = "Remove a profile and its token.")
    static final class Remove implements Runnable {

        @Mixin
        Session session;

        @Parameters(paramLabel = "NAME")
        String name;

        @Override
        public void run() {
            session.profiles().remove(name);
            session.output().line("removed profile '" + name + "'");
        }
    }

    private static ObjectNode json(Profile profile, Optional<String> current) {
        ObjectNode json = JsonTrees.object();
        json.put("name", profile.name());
        json.put("url", profile.url().toString());
        json.put("token", profile.hasToken());
        json.put("current", current.filter(profile.name()::equals).isPresent());
        return json;
    }
}
