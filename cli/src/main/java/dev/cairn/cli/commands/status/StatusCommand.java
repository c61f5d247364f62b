package dev.cairn.cli.commands.status;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import dev.cairn.cli.client.CairnClient;
import dev.cairn.cli.client.CliException;
import dev.cairn.cli.client.ExitCodes;
import dev.cairn.cli.client.JsonTrees;
import dev.cairn.cli.client.Target;
import dev.cairn.cli.options.Session;
import dev.cairn.cli.output.Output;
import dev.cairn.cli.output.TextTable;

/**
 * {@code cairn status}: one line per part of the installation, as the server sees it: itself
 * ({@code /api/v1/server}), PostgreSQL, the broker and the object store (its readiness probe), the
 * workers connected to the task queue and the tasks waiting in it (the broker check's details).
 */
@Command(
        name = "status",
        description = {
            "How the server and its parts are: the server (URL, version), database, broker, object store,"
                    + " workers (how many are connected) and queue (tasks waiting).",
            "Exit code 0 when all is up, 1 when something is down (or no worker is connected), 6 when the"
                    + " server cannot be reached. The details of the parts need a token (a profile, CAIRN_TOKEN,"
                    + " or the local server's admin token)."
        })
public final class StatusCommand implements Callable<Integer> {

    @Mixin
    Session session;

    @Override
    public Integer call() {
        Output out = session.output();
        CairnClient client = session.client();
        String url = client.target().url().toString();
        ObjectNode json = JsonTrees.object();
        ObjectNode server = json.putObject("server");
        server.put("url", url);
        CairnClient.Answer info;
        try {
            info = client.probe("/api/v1/server");
        } catch (CliException e) {
            if (e.exitCode() != ExitCodes.UNAVAILABLE) {
                throw e;
            }
            server.put("status", "DOWN");
            server.put("error", e.getMessage());
            if (out.json()) {
                out.print(json);
            } else {
                out.print(TextTable.of("PART", "STATUS", "DETAIL")
                        .row("server", out.style().bad("down"), e.getMessage()));
                e.hint().ifPresent(hint -> out.note("hint: " + hint));
            }
            return ExitCodes.UNAVAILABLE;
        }
        CairnClient.Answer ready = client.probe("/actuator/health/readiness");
        if (ready.status() == 401 || ready.status() == 403) {
            // a token this server does not know: the probe's status is open to all
            ready = new CairnClient(
                            new Target(
                                    client.target().url(), null, client.target().from()),
                            session.timeout())
                    .probe("/actuator/health/readiness");
        }
        JsonNode body = info.body();
        String overall = JsonTrees.text(ready.body(), "status", "UNKNOWN");
        server.put("status", info.status() == 200 ? "UP" : "DOWN");
        server.set("version", body.get("version"));
        server.set("roles", body.get("roles"));
        server.set("embeddedDatabase", body.get("embeddedDatabase"));
        server.set("embeddedBroker", body.get("embeddedBroker"));
        server.put("ready", overall);

        JsonNode components = ready.body().get("components");
        Map<String, String> details = new LinkedHashMap<>();
        details.put(
                "server",
                url + "  version " + JsonTrees.text(body, "version", "?") + "  roles "
                        + String.join(
                                ",",
                                body.has("roles")
                                        ? body.get("roles")
                                                .valueStream()
                                                .map(JsonNode::asString)
                                                .toList()
                                        : List.of()));
        boolean allUp = info.status() == 200 && "UP".equals(overall);
        if (components == null) {
            for (String part : new String[] {"database", "broker", "objectStore"}) {
                ObjectNode node = json.putObject(part);
                node.put("status", overall);
            }
            json.putObject("workers").put("status", "UNKNOWN");
            json.putObject("queue").put("status", "UNKNOWN");
        } else {
            json.set("database", part(components, "database"));
            json.set("broker", part(components, "broker"));
            json.set("objectStore", part(components, "objectStore"));
            JsonNode broker = components.path("broker").path("details");
            ObjectNode workers = json.putObject("workers");
            ObjectNode queue = json.putObject("queue");
            if (broker.has("consumers")) {
                int connected = broker.get("consumers").asInt();
                workers.put("status", connected > 0 ? "UP" : "DOWN");
                workers.put("connected", connected);
                queue.put("status", "UP");
                queue.put("name", JsonTrees.text(broker, "queue", null));
                queue.put("waiting", broker.get("ready").asLong());
                allUp &= connected > 0;
            } else {
                workers.put("status", "UNKNOWN");
                queue.put("status", "UNKNOWN");
            }
        }
        if (out.json()) {
            out.print(json);
        } else {
            out.print(table(out, json, details.get("server"), components == null));
            if (components == null) {
                out.note("The parts' details need a token: a profile (`cairn profile add`) or CAIRN_TOKEN.");
            }
        }
        return allUp ? ExitCodes.OK : ExitCodes.FAILED;
    }

    private static ObjectNode part(JsonNode components, String name) {
        JsonNode component = components.get(name);
        ObjectNode part = JsonTrees.object();
        part.put("status", component == null ? "UNKNOWN" : JsonTrees.text(component, "status", "UNKNOWN"));
        if (component != null && component.get("details") instanceof ObjectNode details) {
            part.setAll(details);
        }
        return part;
    }

    private static TextTable table(Output out, ObjectNode json, String serverDetail, boolean noDetails) {
        TextTable table = TextTable.of("PART", "STATUS", "DETAIL");
        table.row("server", status(out, json.get("server")), serverDetail);
        JsonNode db = json.get("database");
        table.row(
                "database",
                status(out, db),
                noDetails
                        ? ""
                        : error(
                                db,
                                "PostgreSQL " + JsonTrees.text(db, "version", "?")
                                        + (json.get("server")
                                                        .path("embeddedDatabase")
                                                        .asBoolean()
                                                ? " (embedded)"
                                                : "")));
        JsonNode broker = json.get("broker");
        table.row(
                "broker",
                status(out, broker),
                noDetails
                        ? ""
                        : error(
                                broker,
                                "task queue " + JsonTrees.text(broker, "queue", "?")
                                        + (json.get("server")
                                                        .path("embeddedBroker")
                                                        .asBoolean()
                                                ? " (embedded)"
                                                : "")));
        JsonNode store = json.get("objectStore");
        table.row(
                "object store",
                status(out, store),
                noDetails
                        ? ""
                        : error(
                                store,
                                JsonTrees.text(store, "path", "")
                                        + (store.has("free")
                                                ? "  "
                                                        + gigabytes(store.get("free")
                                                                .asLong()) + " free"
                                                : "")));
        JsonNode workers = json.get("workers");
        table.row(
                "workers",
                status(out, workers),
                workers.has("connected")
                        ? workers.get("connected").asInt() + " connected"
                                + (workers.get("connected").asInt() == 0
                                        ? ": processes wait (`cairn worker start`)"
                                        : "")
                        : "");
        JsonNode queue = json.get("queue");
        table.row(
                "queue",
                status(out, queue),
                queue.has("waiting") ? queue.get("waiting").asLong() + " tasks waiting" : "");
        return table;
    }

    private static String error(JsonNode part, String otherwise) {
        return part.has("error") ? JsonTrees.text(part, "error", otherwise) : otherwise;
    }

    private static String status(Output out, JsonNode part) {
        String status = JsonTrees.text(part, "status", "UNKNOWN").toLowerCase(Locale.ROOT);
        return switch (status) {
            case "up" -> out.style().good(status);
            case "unknown" -> out.style().dim(status);
            default -> out.style().bad(status);
        };
    }

    private static String gigabytes(long bytes) {
        return String.format(Locale.ROOT, "%.1f GB", bytes / 1e9);
    }
}
