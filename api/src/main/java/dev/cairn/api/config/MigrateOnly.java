package dev.cairn.api.config;

import java.util.Optional;
import java.util.function.ToIntFunction;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.SimpleCommandLinePropertySource;
import org.springframework.core.env.StandardEnvironment;

import dev.cairn.storage.db.Migrations;
import dev.cairn.storage.db.SchemaTooNewException;

/**
 * The server's one-shot mode {@code cairn.migrate-only=true} ({@code cairn db migrate} runs it): it
 * reads the settings as the server does, brings the database schema up to date (starting and stopping
 * the embedded PostgreSQL in the embedded mode), prints what it did and exits: 0 when the schema is
 * current, 1 when migrating failed. Nothing else starts: no broker, no API, no worker.
 */
public final class MigrateOnly {

    private MigrateOnly() {}

    /** True when the settings ({@code --cairn.migrate-only=true} or CAIRN_MIGRATE_ONLY) ask for this mode. */
    public static boolean requested(String[] args) {
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().addFirst(new SimpleCommandLinePropertySource(args));
        return Binder.get(environment).bind("cairn.migrate-only", Boolean.class).orElse(false);
    }

    /** Migrates and returns the exit code: 0, {@link StartupProblem#EXIT_STATUS}, or 1 when a migration failed. */
    public static int run(String[] args) {
        try {
            return withSettings(args, MigrateOnly::migrate);
        } catch (RuntimeException e) {
            Optional<StartupProblem> problem = StartupProblem.in(e);
            if (problem.isPresent()) {
                System.err.println("cairn: " + problem.get().getMessage());
                return StartupProblem.EXIT_STATUS;
            }
            System.err.println("cairn: migrating the database schema failed: " + e.getMessage());
            return 1;
        }
    }

    /** Binds the settings as the server does (arguments, environment, application.yml), and nothing else. */
    static int withSettings(String[] args, ToIntFunction<CairnProperties> mode) {
        try (ConfigurableApplicationContext context = new SpringApplicationBuilder(Settings.class)
                .web(WebApplicationType.NONE)
                .logStartupInfo(false)
                .run(args)) {
            return mode.applyAsInt(context.getBean(CairnProperties.class));
        }
    }

    private static int migrate(CairnProperties properties) {
        if (!properties.database().embedded()) {
            ServiceWait.forDatabase(properties.database());
        }
        try (OneShotDatabase database = OneShotDatabase.of(properties)) {
            int applied;
            try {
                applied = Migrations.migrate(database.config());
            } catch (SchemaTooNewException e) {
                throw new StartupProblem(e.getMessage(), e);
            }
            Migrations.Status status = Migrations.status(database.config());
            System.out.println("Schema of " + database.where() + ": " + applied + " migration"
                    + (applied == 1 ? "" : "s") + " applied, now at version " + status.version() + ".");
            return 0;
        }
    }

    /** The settings alone, as the server binds them. */
    @EnableConfigurationProperties(CairnProperties.class)
    static class Settings {}
}
