package dev.cairn.cli;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.sun.net.httpserver.HttpServer;
import picocli.CommandLine;

import dev.cairn.cli.options.Environment;

/**
 * The build's training run for the start-up cache (cli/src/build/finish-distribution.sh): the
 * everyday commands, in one JVM, against a local HTTP server that answers every request with an empty
 * page, so that the classes of parsing, the HTTP client, JSON and tables are loaded and linked when the
 * JVM writes its cache at exit. What the commands print is thrown away; only the loading counts.
 */
final class Training {

    private static final String EMPTY_PAGE = "{\"items\": [], \"total\": 0, \"nodes\": [], \"processes\": []}";

    private Training() {}

    public static void main(String[] args) throws IOException {
        Path scratch = Files.createTempDirectory("cairn-training");
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            byte[] body = EMPTY_PAGE.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
        try {
            String url = "http://127.0.0.1:" + server.getAddress().getPort();
            Environment.set(
                    Map.of(
                            "CAIRN_CONFIG_DIR",
                            scratch.resolve("config").toString(),
                            "CAIRN_URL",
                            url,
                            "CAIRN_TOKEN",
                            "t",
                            "CAIRN_DATA_DIR",
                            scratch.resolve("data").toString()),
                    scratch);
            for (String line : Files.readAllLines(Path.of(args[0]))) {
                if (!line.isBlank() && !line.startsWith("#")) {
                    run(List.of(line.strip().split("\\s+")));
                }
            }
        } finally {
            server.stop(0);
            Environment.reset();
        }
    }

    private static void run(List<String> command) {
        StringWriter sink = new StringWriter();
        CommandLine cli = CairnCommand.commandLine(command.toArray(String[]::new));
        cli.setOut(new PrintWriter(sink));
        cli.setErr(new PrintWriter(sink));
        List<String> args = new ArrayList<>(command);
        cli.execute(args.toArray(String[]::new));
    }
}
