package dev.cairn.api.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;

import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.cairn.api.security.Role;
import dev.cairn.api.security.TokenService;
import dev.cairn.engine.Engine;

/**
 * The base of the server's integration tests: the whole application on a random port, against
 * real PostgreSQL and RabbitMQ (a database and a virtual host of the test class's own, see
 * {@link ApiServices}), with an admin token; {@link #api(String)} makes requests as a token. Each
 * class gets an application of its own, closed after it.
 */
@ExtendWith(ApiServices.class)
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
public abstract class ApiTest {

    @TempDir
    protected static Path dataDir;

    @DynamicPropertySource
    static void services(DynamicPropertyRegistry registry) {
        registry.add("cairn.database.url", () -> ApiServices.db().jdbcUrl());
        registry.add("cairn.database.pool-size", () -> "8");
        registry.add("cairn.broker.uri", () -> Amqp.uri(ApiServices.broker()));
        registry.add("cairn.data-dir", () -> dataDir.toString());
        registry.add("cairn.worker.slots", () -> "4");
    }

    @LocalServerPort
    protected int port;

    @Autowired
    protected Engine engine;

    @Autowired
    protected TokenService tokens;

    /** The admin token the first start wrote. */
    protected String adminToken() {
        try {
            return Files.readString(dataDir.resolve("admin-token")).strip();
        } catch (IOException e) {
            throw new IllegalStateException("the server wrote no admin token to " + dataDir, e);
        }
    }

    /** A new token of the engine's default user with {@code role} (and the roles it includes). */
    protected String token(Role role) {
        return tokens.create(engine.graph().userId(), "test " + role.value(), EnumSet.of(role), null)
                .secret();
    }

    /** Requests as {@code token} (null: none). */
    protected Api api(String token) {
        return new Api("http://localhost:" + port, token);
    }

    /** Requests as the admin. */
    protected Api admin() {
        return api(adminToken());
    }

    /** A computer of this machine (core.local, core.direct) labelled {@code label}: registered unless it is. */
    protected void localComputer(String label, Path workdir) {
        if (admin().get("/api/v1/computers/" + label).status() == 404) {
            Api.Response made = admin().post("/api/v1/computers", """
                    {"label": "%s", "hostname": "localhost", "transportType": "core.local",
                     "schedulerType": "core.direct", "settings": {"workdir": "%s"}}""".formatted(label, workdir));
            if (made.status() != 201) {
                throw new AssertionError("registering computer " + label + ": " + made);
            }
        }
    }
}
