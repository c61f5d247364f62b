package dev.cairn.api.demo;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * What the demo prints: a table of the processes it ran, what the graph held before and holds now,
 * the server's addresses, where the admin token is, and curl commands that work as printed.
 *
 * @param nodesBefore     nodes in the graph before the demo launched anything
 * @param nodesAfter      nodes in the graph after its processes ended
 * @param processesBefore process nodes among {@code nodesBefore}
 * @param baseUrl         the server's root, {@code http://localhost:8080}; null when this JVM serves no API
 */
record DemoReport(
        List<DemoOutcome> outcomes,
        long nodesBefore,
        long processesBefore,
        long nodesAfter,
        String baseUrl,
        Path tokenFile,
        boolean tokenWorks,
        Path dataDir) {

    /** The text, lines ending in a newline. */
    String text() {
        StringBuilder out = new StringBuilder();
        out.append("\nCairn's demo ran these processes of the examples plugin on the workers:\n\n");
        table(out);
        out.append("\nThe graph held ")
                .append(count(nodesBefore, "node"))
                .append(" before this run (")
                .append(count(processesBefore, "process"))
                .append(" among them); it holds ")
                .append(count(nodesAfter, "node"))
                .append(" now.\n");
        if (baseUrl == null) {
            out.append("This JVM serves no API (cairn.roles has no api).\n");
            return out.toString();
        }
        out.append('\n')
                .append("  Web view     ")
                .append(baseUrl)
                .append("/ui (sign in with the admin token)\n")
                .append("  API          ")
                .append(baseUrl)
                .append("/api/v1\n")
                .append("  Swagger UI   ")
                .append(baseUrl)
                .append("/swagger-ui.html\n")
                .append("  OpenAPI      ")
                .append(baseUrl)
                .append("/v3/api-docs\n")
                .append("  admin token  ")
                .append(tokenFile)
                .append(" (data directory ")
                .append(dataDir)
                .append(")\n");
        if (!tokenWorks) {
            out.append("               no longer works (revoked or expired): `cairn token create --role admin --local"
                            + " --data-dir ")
                    .append(dataDir)
                    .append("` makes a new admin token on this host\n");
        }
        out.append("\nTry:\n");
        for (String curl : curlCommands()) {
            out.append("  ").append(curl).append('\n');
        }
        out.append("\nServing until Ctrl-C, which stops the worker, the broker and the embedded PostgreSQL.\n");
        return out.toString();
    }

    /** Three requests that work as printed: the server, a metric that needs the token, the health. */
    List<String> curlCommands() {
        String bearer = "-H \"Authorization: Bearer $(cat " + shellQuoted(tokenFile.toString()) + ")\"";
        return List.of(
                "curl -s " + bearer + " " + baseUrl + "/api/v1/server",
                "curl -s " + bearer + " " + baseUrl + "/actuator/metrics/process.uptime",
                "curl -s " + baseUrl + "/actuator/health");
    }

    private void table(StringBuilder out) {
        int titleWidth =
                outcomes.stream().mapToInt(o -> o.title().length()).max().orElse(7);
        String row = "  %-" + titleWidth + "s  %-9s  %4s  %6s  %8s  %-6s  %s%n";
        out.append(String.format(Locale.ROOT, row, "process", "state", "exit", "result", "time", "cache", "uuid"));
        for (DemoOutcome o : outcomes) {
            out.append(String.format(
                    Locale.ROOT,
                    row,
                    o.title(),
                    o.state(),
                    o.exitStatus() == null ? "-" : o.exitStatus().toString(),
                    o.result() == null ? "-" : o.result().toString(),
                    String.format(Locale.ROOT, "%.2f s", o.time().toNanos() / 1e9),
                    o.cachedFrom() == null ? "ran" : "cached",
                    o.uuid()));
        }
        for (DemoOutcome o : outcomes) {
            if (o.cachedFrom() != null) {
                out.append("\n  ")
                        .append(o.title())
                        .append(" ran nothing: it took the outputs of ")
                        .append(o.cachedFrom())
                        .append(", a finished calculation with the same inputs.\n");
            }
        }
    }

    private static String count(long n, String noun) {
        return n + " " + noun + (n == 1 ? "" : noun.endsWith("s") ? "es" : "s");
    }

    /** {@code path} as one word for bash, in single quotes. */
    static String shellQuoted(String path) {
        return "'" + path.replace("'", "'\\''") + "'";
    }
}
