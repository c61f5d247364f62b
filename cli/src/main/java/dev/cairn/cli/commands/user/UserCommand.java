package dev.cairn.cli.commands.user;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import dev.cairn.cli.client.CairnClient;
import dev.cairn.cli.client.JsonTrees;
import dev.cairn.cli.options.Session;
import dev.cairn.cli.output.Output;
import dev.cairn.cli.output.TextTable;

/** {@code cairn user ...}: the people nodes, groups and tokens belong to, named by email. */
@Command(
        name = "user",
        description = "The users nodes, groups and tokens belong to (by email): list, show, add, configure.",
        subcommands = {
            UserCommand.ListUsers.class,
            UserCommand.Show.class,
            UserCommand.Add.class,
            UserCommand.Configure.class
        })
public final class UserCommand {

    static String path(String email) {
        return "/api/v1/users/" + CairnClient.segment(email);
    }

    static void print(Output out, JsonNode user) {
        if (out.json()) {
            out.print(user);
            return;
        }
        out.line("email:        " + user.path("email").asString());
        out.line("first name:   " + JsonTrees.text(user, "firstName", ""));
        out.line("last name:    " + JsonTrees.text(user, "lastName", ""));
        out.line("institution:  " + JsonTrees.text(user, "institution", ""));
        out.line("default:      " + (user.path("isDefault").asBoolean() ? "yes" : "no"));
    }

    /** The names and institution both add and configure take. */
    static final class Names {
        @Option(names = "--first-name", paramLabel = "NAME", description = "The first name.")
        String firstName;

        @Option(names = "--last-name", paramLabel = "NAME", description = "The last name.")
        String lastName;

        @Option(names = "--institution", paramLabel = "NAME", description = "The institution.")
        String institution;

        ObjectNode into(ObjectNode body) {
            if (firstName != null) {
                body.put("firstName", firstName);
            }
            if (lastName != null) {
                body.put("lastName", lastName);
            }
            if (institution != null) {
                body.put("institution", institution);
            }
            return body;
        }
    }

    @Command(name = "list", description = "List the users; '*' marks the default user.")
    static final class ListUsers implements Runnable {

        @Mixin
        Session session;

        @Override
        public void run() {
            JsonNode users = session.client().get("/api/v1/users").path("items");
            Output out = session.output();
            if (out.json()) {
                out.print(users);
                return;
            }
            TextTable table = TextTable.of("", "EMAIL", "FIRST NAME", "LAST NAME", "INSTITUTION");
            for (JsonNode u : users) {
                table.row(
                        u.path("isDefault").asBoolean() ? "*" : "",
                        u.path("email").asString(),
                        JsonTrees.text(u, "firstName", ""),
                        JsonTrees.text(u, "lastName", ""),
                        JsonTrees.text(u, "institution", ""));
            }
            out.print(table);
        }
    }

    @Command(name = "show", description = "Show a user.")
    static final class Show implements Runnable {

        @Mixin
        Session session;

        @Parameters(paramLabel = "EMAIL", description = "The user's email.")
        String email;

        @Override
        public void run() {
            print(session.output(), session.client().get(path(email)));
        }
    }

    @Command(name = "add", description = "Add a user, who may then own tokens (`cairn token create --user EMAIL`).")
    static final class Add implements Runnable {

        @Mixin
        Session session;

        @Parameters(paramLabel = "EMAIL", description = "The user's email: their identity.")
        String email;

        @Mixin
        Names names;

        @Override
        public void run() {
            JsonNode user = session.client()
                    .post("/api/v1/users", names.into(JsonTrees.object().put("email", email)));
            if (session.output().json()) {
                session.output().print(user);
            } else {
                session.output().line("user '" + user.path("email").asString() + "' added");
            }
        }
    }

    @Command(
            name = "configure",
            description = "Change a user's names or institution; what is not given stays (the email does not change).")
    static final class Configure implements Runnable {

        @Mixin
        Session session;

        @Parameters(paramLabel = "EMAIL", description = "The user's email.")
        String email;

        @Mixin
        Names names;

        @Override
        public void run() {
            print(session.output(), session.client().patch(path(email), names.into(JsonTrees.object())));
        }
    }
}
