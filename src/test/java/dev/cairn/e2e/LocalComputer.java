package dev.cairn.e2e;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;

/** The computer {@code localhost} (local transport, direct scheduler) the shell job tests run their jobs on. */
public final class LocalComputer {

    private LocalComputer() {}

    /** Registers {@code localhost} on {@code server}, its jobs working under {@code workdir}. */
    public static void register(CairnServerProcess server, Path workdir) {
        HttpResponse<String> made = server.send(server.request("/api/v1/computers", server.adminToken())
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("""
                        {"label": "localhost", "hostname": "localhost", "transportType": "core.local",
                         "schedulerType": "core.direct", "settings": {"workdir": "%s"}}""".formatted(workdir)))
                .build());
        if (made.statusCode() != 201) {
            throw new AssertionError("registering the computer localhost: " + made.statusCode() + " " + made.body());
        }
    }
}
