package dev.cairn.api;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

import dev.cairn.api.config.MigrateOnly;

/**
 * The Cairn server: the REST API and a worker, or either, by {@code cairn.roles}; with
 * {@code cairn.migrate-only=true}, only the database schema's migrations, then it exits.
 */
@SpringBootApplication
public class CairnApplication {

    public static void main(String[] args) {
        if (MigrateOnly.requested(args)) {
            System.exit(MigrateOnly.run(args));
        }
        SpringApplication.run(CairnApplication.class, args);
    }
}
