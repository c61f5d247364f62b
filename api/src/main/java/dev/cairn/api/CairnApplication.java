package dev.cairn.api;

import java.util.Arrays;
import java.util.Map;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.ConfigurableApplicationContext;

import dev.cairn.api.config.LocalAdminToken;
import dev.cairn.api.config.MigrateOnly;
import dev.cairn.api.config.StartupProblem;

/**
 * The Cairn server: the REST API and a worker, or either, by {@code cairn.roles}; with
 * {@code cairn.migrate-only=true}, only the database schema's migrations, then it exits; with
 * {@code cairn.local-admin-token=NAME}, only a new admin token for an operator of this host (no token needed).
 */
@SpringBootApplication
public class CairnApplication {

    public static void main(String[] args) {
        if (MigrateOnly.requested(args)) {
            System.exit(MigrateOnly.run(args));
        }
        if (LocalAdminToken.requested(args)) {
            System.exit(LocalAdminToken.run(args));
        }
        SpringApplication app = new SpringApplication(CairnApplication.class);
        if (Arrays.stream(args).anyMatch(a -> a.startsWith("--cairn.restore-from="))) {
            // a one-shot restore: the engine bean restores before it opens; no worker runs processes, and the
            // API (its security needs the web context) listens on a free port until the context closes
            app.setDefaultProperties(Map.of("cairn.roles", "api", "server.port", "0"));
            ConfigurableApplicationContext context = start(app, args);
            System.exit(SpringApplication.exit(context));
        }
        start(app, args);
    }

    /** Runs the application; a start-up problem (reported in one line) ends the JVM with its exit status. */
    private static ConfigurableApplicationContext start(SpringApplication app, String[] args) {
        try {
            return app.run(args);
        } catch (RuntimeException e) {
            if (StartupProblem.in(e).isPresent()) {
                System.exit(StartupProblem.EXIT_STATUS);
            }
            throw e;
        }
    }
}
