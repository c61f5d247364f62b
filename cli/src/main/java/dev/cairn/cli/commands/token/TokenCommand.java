package dev.cairn.cli.commands.token;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Unmatched;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import dev.cairn.cli.client.CairnClient;
import dev.cairn.cli.client.CliException;
import dev.cairn.cli.client.ExitCodes;
import dev.cairn.cli.client.JsonTrees;
import dev.cairn.cli.options.DataDirOption;
import dev.cairn.cli.options.Session;
import dev.cairn.cli.output.Output;
import dev.cairn.cli.output.TextTable;

/** {@code cairn token create|list|revoke}: the API's bearer tokens. */
@Command(
        name = "token",
        description = "Bearer tokens for the API: create (the secret is shown once), list, revoke.",
        subcommands = {TokenCommand.Create.class, TokenCommand.ListTokens.class, TokenCommand.Revoke.class})
public final class TokenCommand {

    /** The roles a token may have; each includes the ones before it. */
    static final List<String> ROLES = List.of("read", "submit", "admin");

    /** The roles, for completion. */
    static final class Roles extends ArrayList<String> {
        private static final long serialVersionUID = 1L;

        Roles() {
            super(ROLES);
        }
    }

    @Command(
            name = "create",
            description = {
                "Create a token and print its secret: the only time it is shown, so keep it (e.g. in a file for"
                        + " `cairn profile add NAME --server URL --token-file FILE`).",
                "Roles: read (look), submit (also launch and change data), admin (also computers, codes, users, tokens)."
            })
    static final class Create implements Runnable {

        @Mixin
        Session session;

        @Option(
                names = "--role",
                required = true,
                paramLabel = "ROLE",
                completionCandidates = Roles.class,
                description = "read, submit or admin.")
        String role;

        @Option(names = "--user", paramLabel = "EMAIL", description = "The user the token acts as (default: you).")
        String user;

        @Option(
                names = "--label",
                paramLabel = "LABEL",
                defaultValue = "cli",
                description = "What the token is for (default: ${DEFAULT-VALUE}).")
        String label;

        @Option(
                names = "--expires",
                paramLabel = "TIME",
                description = "When it stops working, ISO 8601 (e.g. 2027-01-01T00:00:00Z); default: never.")
        String expires;

        @Option(
                names = "--local",
                description = {
                    "On the server's host, with no token: the server jar makes an admin token in the database of"
                            + " the data directory's settings (those `cairn server start` kept, a running embedded"
                            + " server's, or --cairn.database.url=... given here). The way back in when no admin"
                            + " token works."
                })
        boolean local;

        @Mixin
        DataDirOption dataDir;

        @Unmatched
        List<String> settings;

        @Override
        public void run() {
            if (!ROLES.contains(role)) {
                throw CliException.usage(
                        "--role: '" + role + "' is not a role; the roles are " + String.join(", ", ROLES));
            }
            if (local) {
                if (!role.equals("admin") || user != null || expires != null) {
                    throw CliException.usage("--local makes an admin token of the default user that does not expire:"
                            + " give --role admin, and neither --user nor --expires (make others with it afterwards)");
                }
                Output out = session.output();
                String secret = LocalAdminTokenLauncher.make(session, dataDir.dataDir(session), label, settings);
                out.line(secret);
                return;
            }
            if (settings != null && !settings.isEmpty()) {
                throw CliException.usage(
                        "unknown option " + settings.getFirst() + " (server settings go with --local)");
            }
            ObjectNode body = JsonTrees.object().put("name", label);
            body.putArray("roles").add(role);
            if (user != null) {
                body.put("user", user);
            }
            if (expires != null) {
                body.put("expires", expires);
            }
            JsonNode issued = session.client().post("/api/v1/tokens", body);
            Output out = session.output();
            if (out.json()) {
                out.print(issued);
                return;
            }
            JsonNode token = issued.path("token");
            out.line(issued.path("secret").asString());
            out.note("token " + token.path("uuid").asString() + " for "
                    + token.path("user").asString() + " (" + String.join(",", strings(token.path("roles")))
                    + "): the secret above is not shown again");
        }
    }

    @Command(
            name = "list",
            description = "List the tokens, newest first, revoked and expired ones too; never a secret.")
    static final class ListTokens implements Runnable {

        @Mixin
        Session session;

        @Option(names = "--user", paramLabel = "EMAIL", description = "Only this user's tokens.")
        String user;

        @Override
        public void run() {
            JsonNode tokens = session.client()
                    .get("/api/v1/tokens" + (user == null ? "" : "?user=" + CairnClient.param(user)))
                    .path("items");
            Output out = session.output();
            if (out.json()) {
                out.print(tokens);
                return;
            }
            TextTable table = TextTable.of("UUID", "USER", "LABEL", "ROLES", "CREATED", "LAST USED", "STATE");
            for (JsonNode t : tokens) {
                String state = t.path("valid").asBoolean()
                        ? out.style().good("valid")
                        : t.hasNonNull("revoked")
                                ? out.style().bad("revoked")
                                : out.style().warn("expired");
                table.row(
                        t.path("uuid").asString(),
                        t.path("user").asString(),
                        t.path("name").asString(),
                        String.join(",", strings(t.path("roles"))),
                        out.ago(JsonTrees.text(t, "created", null)),
                        t.hasNonNull("lastUsed") ? out.ago(t.path("lastUsed").asString()) : "never",
                        state);
            }
            out.print(table);
        }
    }

    @Command(name = "revoke", description = "Revoke a token: it stops working at once and stays listed, revoked.")
    static final class Revoke implements Runnable {

        @Mixin
        Session session;

        @Parameters(
                paramLabel = "ID",
                description = "The token's uuid, or a unique prefix of it (as `token list` shows).")
        String id;

        @Override
        public void run() {
            String uuid = resolve(session.client(), id);
            JsonNode token = session.client().post("/api/v1/tokens/" + uuid + "/revoke", JsonTrees.object());
            Output out = session.output();
            if (out.json()) {
                out.print(token);
            } else {
                out.line("revoked token " + uuid + " (" + token.path("name").asString() + ", "
                        + token.path("user").asString() + ")");
            }
        }

        private static String resolve(CairnClient client, String id) {
            List<String> matches = new ArrayList<>();
            for (JsonNode t : client.get("/api/v1/tokens").path("items")) {
                String uuid = t.path("uuid").asString();
                if (uuid.equalsIgnoreCase(id)) {
                    return uuid;
                }
                if (uuid.startsWith(id.toLowerCase(Locale.ROOT))) {
                    matches.add(uuid);
                }
            }
            if (matches.isEmpty()) {
                throw new CliException(
                        ExitCodes.NOT_FOUND, "no token has a uuid beginning '" + id + "'", "cairn token list");
            }
            if (matches.size() > 1) {
                throw new CliException(
                        ExitCodes.CONFLICT,
                        "'" + id + "' begins the uuids of " + matches.size() + " tokens: " + String.join(", ", matches),
                        "give more of the uuid");
            }
            return matches.getFirst();
        }
    }

    private static List<String> strings(JsonNode array) {
        List<String> values = new ArrayList<>();
        array.forEach(v -> values.add(v.asString()));
        return values;
    }
}
