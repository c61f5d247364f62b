package dev.cairn.storage.testing;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A PostgreSQL server the tests may create databases on, described the way
 * {@code CAIRN_TEST_DB_URL} gives it: a JDBC URL of an administrative database with the
 * credentials as query parameters,
 * {@code jdbc:postgresql://127.0.0.1:5432/postgres?user=cairn&password=cairn}.
 *
 * @param hosts          the URL's host part, {@code host:port} or several of them, kept as written
 * @param adminDatabase  the database to connect to for {@code CREATE DATABASE}
 * @param parameters     the URL's query parameters, decoded; {@code user} is required
 */
public record PostgresServer(String hosts, String adminDatabase, Map<String, String> parameters) {

    private static final String PREFIX = "jdbc:postgresql://";

    public PostgresServer {
        if (hosts == null || hosts.isBlank()) {
            throw new IllegalArgumentException("PostgreSQL URL without a host");
        }
        if (adminDatabase == null || adminDatabase.isBlank()) {
            throw new IllegalArgumentException("PostgreSQL URL without a database");
        }
        if (parameters == null || parameters.getOrDefault("user", "").isBlank()) {
            throw new IllegalArgumentException(
                    "PostgreSQL URL without a user: add it as a query parameter, ...?user=cairn&password=cairn");
        }
        // Insertion order kept so that urlFor(...) writes the parameters back as they came.
        parameters = Collections.unmodifiableMap(new LinkedHashMap<>(parameters));
    }

    /** For a server known by its parts (a container). */
    public static PostgresServer of(String host, int port, String adminDatabase, String user, String password) {
        Map<String, String> parameters = new LinkedHashMap<>();
        parameters.put("user", user);
        parameters.put("password", password);
        return new PostgresServer(host + ":" + port, adminDatabase, parameters);
    }

    /**
     * Reads a URL of the form {@code jdbc:postgresql://host[:port][,host2...]/[database][?k=v&...]}.
     * Without a database name the admin database is {@code postgres}.
     */
    public static PostgresServer parse(String url) {
        if (url == null || !url.startsWith(PREFIX)) {
            throw new IllegalArgumentException("not a PostgreSQL JDBC URL (expected " + PREFIX
                    + "host:port/postgres?user=...&password=...): '" + withoutPassword(url) + "'");
        }
        int query = url.indexOf('?');
        String address = query < 0 ? url.substring(PREFIX.length()) : url.substring(PREFIX.length(), query);
        int slash = address.indexOf('/');
        String hosts = slash < 0 ? address : address.substring(0, slash);
        String database = slash < 0 ? "" : decode(address.substring(slash + 1));
        Map<String, String> parameters = new LinkedHashMap<>();
        if (query >= 0) {
            for (String pair : url.substring(query + 1).split("&")) {
                if (pair.isEmpty()) {
                    continue;
                }
                int eq = pair.indexOf('=');
                String key = decode(eq < 0 ? pair : pair.substring(0, eq));
                parameters.put(key, eq < 0 ? "" : decode(pair.substring(eq + 1)));
            }
        }
        return new PostgresServer(hosts, database.isEmpty() ? "postgres" : database, parameters);
    }

    /** The JDBC URL of {@code database} on this server, with the same credentials and options. */
    public String urlFor(String database) {
        String query = parameters.entrySet().stream()
                .map(e -> encode(e.getKey()) + "=" + encode(e.getValue()))
                .collect(Collectors.joining("&"));
        return PREFIX + hosts + "/" + encode(database) + (query.isEmpty() ? "" : "?" + query);
    }

    /** The JDBC URL of the administrative database. */
    public String adminUrl() {
        return urlFor(adminDatabase);
    }

    public String user() {
        return parameters.get("user");
    }

    /** The password, or an empty string when the URL has none (trust or peer authentication). */
    public String password() {
        return parameters.getOrDefault("password", "");
    }

    @Override
    public String toString() {
        return withoutPassword(adminUrl());
    }

    /** For messages: the URL with the password's value hidden. */
    static String withoutPassword(String url) {
        return url == null ? null : url.replaceAll("(?i)([?&]password=)[^&]*", "$1***");
    }

    private static String decode(String s) {
        return URLDecoder.decode(s, StandardCharsets.UTF_8);
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
