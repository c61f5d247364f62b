package dev.cairn.examples.demo;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.Comparator;
import java.util.stream.Stream;

import dev.cairn.storage.db.Databases;

/** What the demos share: a database made afresh on a server, and a folder of a former run deleted. */
final class Demos {

    private Demos() {}

    /** A fresh database named {@code name} (dropped first if it exists) on {@code admin}'s server; returns its URL. */
    static String freshDatabase(String admin, String name) throws Exception {
        try (Connection c = DriverManager.getConnection(admin);
                Statement s = c.createStatement()) {
            Databases.drop(c, name);
            s.execute("CREATE DATABASE " + name);
        }
        return admin.replaceFirst("/[^/?]+(\\?|$)", "/" + name + "$1");
    }

    /** Deletes a folder and everything in it; a missing folder is fine. */
    static void delete(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
