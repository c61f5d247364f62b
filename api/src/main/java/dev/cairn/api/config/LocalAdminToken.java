package dev.cairn.api.config;

import java.util.EnumSet;

import org.springframework.core.env.SimpleCommandLinePropertySource;
import org.springframework.core.env.StandardEnvironment;

import dev.cairn.api.security.Role;
import dev.cairn.api.security.TokenService;
import dev.cairn.storage.Storage;
import dev.cairn.storage.db.Database;
import dev.cairn.storage.db.Migrations;
import dev.cairn.storage.errors.ConflictException;
import dev.cairn.storage.graph.GraphStore;
import dev.cairn.storage.graph.users.User;
import dev.cairn.storage.graph.users.UserStore;

/**
 * The server's one-shot mode {@code cairn.local-admin-token=NAME} ({@code cairn token create --role admin
 * --local} runs it): the way back in for an operator on the server's host when no admin token works (revoked,
 * expired or lost). It needs no token, only what the server itself needs: the database's settings, or the data
 * directory of the embedded one. It makes an admin token named NAME for the default user, prints its secret
 * alone on standard output and exits: 0 when it did, 1 when it could not (saying why on standard error).
 */
public final class LocalAdminToken {

    /** The setting naming the token to make; it makes this start the one-shot mode. */
    public static final String SETTING = "cairn.local-admin-token";

    private LocalAdminToken() {}

    /** True when the settings ({@code --cairn.local-admin-token=NAME} or CAIRN_LOCAL_ADMIN_TOKEN) ask for this mode. */
    public static boolean requested(String[] args) {
        return name(args) != null;
    }

    private static String name(String[] args) {
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().addFirst(new SimpleCommandLinePropertySource(args));
        String name = environment.getProperty(SETTING);
        return name == null || name.isBlank() ? null : name.strip();
    }

    /** Makes the token and returns the exit code. */
    public static int run(String[] args) {
        String name = name(args);
        try {
            return MigrateOnly.withSettings(args, properties -> issue(properties, name));
        } catch (RuntimeException e) {
            System.err.println("cairn: making an admin token on this host failed: " + e.getMessage());
            return 1;
        }
    }

    private static int issue(CairnProperties properties, String name) {
        try (OneShotDatabase one = OneShotDatabase.of(properties)) {
            Migrations.Status status = Migrations.status(one.config());
            if (status.version() == null) {
                throw new ConflictException("the database at " + one.where() + " has no Cairn schema yet: start the"
                        + " server once, or run `cairn db migrate`");
            }
            if (!status.pending().isEmpty()) {
                throw new ConflictException("the schema of " + one.where() + " is at version " + status.version()
                        + ", older than this server's: migrate it first (`cairn db migrate`)");
            }
            try (Database database = Database.open(one.config())) {
                User user = new UserStore(database)
                        .defaultUser()
                        .orElseThrow(() -> new ConflictException(
                                "the installation at " + one.where() + " has no default user to make a token for"));
                Storage storage = new Storage(database, new GraphStore(database, null, user.id()));
                TokenService.Issued issued =
                        new TokenService(storage).create(user.id(), name, EnumSet.of(Role.ADMIN), null);
                System.out.println(issued.secret());
                System.err.println("cairn: made admin token " + issued.token().uuid() + " (" + name + ") for "
                        + user.email() + " in " + one.where() + "; its secret, above, is not shown again");
                return 0;
            }
        }
    }
}
