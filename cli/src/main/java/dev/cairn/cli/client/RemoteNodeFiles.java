package dev.cairn.cli.client;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import tools.jackson.databind.JsonNode;

/** A node's files over the REST API: listings, one file streamed, every file copied into a folder. */
public final class RemoteNodeFiles {

    private final CairnClient client;
    private final String node;

    /** @param node the node's uuid or unique prefix, as the server takes it */
    public RemoteNodeFiles(CairnClient client, String node) {
        this.client = client;
        this.node = node;
    }

    /** The listing of a folder ({@code ""} for the top): {@code {node, path, entries: [...]}}. */
    public JsonNode list(String folder, boolean recursive) {
        return client.get("/api/v1/nodes/" + CairnClient.segment(node) + "/files?path=" + CairnClient.param(folder)
                + (recursive ? "&recursive=true" : ""));
    }

    /** Writes one file to the process's standard output, byte for byte. */
    public void copyToStandardOutput(String path) {
        PrintStream stdout = System.out;
        copy(path, stdout);
        if (stdout.checkError()) {
            throw new CliException(ExitCodes.FAILED, "writing to standard output failed", null);
        }
    }

    /** Copies one file's bytes to {@code to} as they come. */
    public void copy(String path, OutputStream to) {
        try (InputStream in = client.stream(url(path), "*/*")) {
            in.transferTo(to);
            to.flush();
        } catch (IOException e) {
            throw new CliException(ExitCodes.UNAVAILABLE, "reading " + path + " failed: " + e.getMessage(), null, e);
        }
    }

    /**
     * Every file under the top into {@code dest}, which must be missing or an empty folder; the paths written.
     * On a failure what was written is removed again.
     */
    public List<Path> dump(Path dest) {
        if (Files.exists(dest)) {
            if (!Files.isDirectory(dest)) {
                throw CliException.usage(dest + " exists and is not a folder");
            }
            try (var entries = Files.list(dest)) {
                if (entries.findAny().isPresent()) {
                    throw CliException.usage(dest + " exists and is not empty: give a new or empty folder");
                }
            } catch (IOException e) {
                throw CliException.usage("cannot read " + dest + ": " + e.getMessage());
            }
        }
        boolean created = !Files.exists(dest);
        List<Path> written = new ArrayList<>();
        try {
            Files.createDirectories(dest);
            for (JsonNode entry : list("", true).path("entries")) {
                String path = entry.path("path").asString();
                Path target = dest.resolve(path).normalize();
                if (!target.startsWith(dest.normalize())) {
                    throw new CliException(
                            ExitCodes.FAILED, "the server named a file outside the folder: " + path, null);
                }
                Files.createDirectories(target.getParent());
                if ("directory".equals(entry.path("type").asString())) {
                    Files.createDirectories(target);
                    continue;
                }
                client.download(url(path), target);
                written.add(target);
            }
        } catch (IOException | RuntimeException e) {
            undo(dest, created);
            if (e instanceof RuntimeException r) {
                throw r;
            }
            throw new CliException(ExitCodes.FAILED, "writing into " + dest + " failed: " + e.getMessage(), null, e);
        }
        return written;
    }

    /** Removes what a failed dump wrote: the folder if it made it, else what it put into the empty one. */
    private static void undo(Path dest, boolean created) {
        try (Stream<Path> all = Files.walk(dest)) {
            all.sorted(Comparator.reverseOrder())
                    .filter(p -> created || !p.equals(dest))
                    .forEach(p -> p.toFile().delete());
        } catch (IOException | UncheckedIOException e) {
            // the failure that brought us here is the one to report
        }
    }

    private String url(String path) {
        StringBuilder url = new StringBuilder("/api/v1/nodes/")
                .append(CairnClient.segment(node))
                .append("/files");
        for (String part : path.split("/")) {
            if (!part.isEmpty()) {
                url.append('/').append(CairnClient.segment(part));
            }
        }
        return url.toString();
    }
}
