package dev.cairn.cli.commands.archive;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import dev.cairn.cli.client.CliException;
import dev.cairn.cli.client.JsonTrees;
import dev.cairn.cli.options.Session;
import dev.cairn.cli.output.Output;
import dev.cairn.cli.output.Progress;

@Command(
        name = "inspect",
        description = {
            "Have the server read an archive file through and verify it without importing anything: every frame,"
                    + " count and checksum, every object's bytes against its key (role read). Prints the header and"
                    + " each part's rows and bytes; a bad file is refused naming what is wrong (exit code 2).",
            "Example: cairn archive inspect export.cairn"
        })
final class ArchiveInspect implements Runnable {

    @Mixin
    Session session;

    @Parameters(paramLabel = "FILE", description = "The archive file to verify.")
    Path file;

    @Override
    public void run() {
        JsonNode answer = upload(session, "/api/v1/archive/inspection", file, "verifying");
        Output out = session.output();
        if (out.json()) {
            out.print(answer);
            return;
        }
        JsonNode header = answer.path("header");
        ArchiveHeaders.describe(out, header);
        out.line("");
        ObjectNode bytes = JsonTrees.object();
        answer.path("parts")
                .properties()
                .forEach(p -> bytes.put(
                        p.getKey(), Progress.size(p.getValue().path("bytes").asLong())));
        Map<String, JsonNode> columns = new LinkedHashMap<>();
        columns.put("BYTES", bytes);
        out.print(ArchiveHeaders.parts(header.path("counts"), columns));
        out.note("verified: every part's count and checksum and every object's key match");
    }

    /** Sends {@code file} to {@code path} with a progress bar of the bytes sent; the server's answer. */
    static JsonNode upload(Session session, String path, Path file, String label) {
        try (Progress p = session.output().byteProgress(label, sizeOf(file))) {
            return session.client().upload(path, file, p::set);
        }
    }

    /** The size of the archive file to send; a usage error when there is none to read. */
    static long sizeOf(Path file) {
        if (!Files.isRegularFile(file)) {
            throw CliException.usage("no such file: " + file);
        }
        try {
            return Files.size(file);
        } catch (IOException e) {
            throw CliException.usage("cannot read " + file + ": " + e.getMessage());
        }
    }
}
